import { useAuthState } from '../../../lib/auth';
import { useGetFollowedTagsQuery, useSetTagFollowingMutation } from '../api/follows';
import { FollowButton } from './FollowButton';

/** Follow on a tag's page (a signed-in member's; nothing for a visitor): new posts in the tag notify the member while pressed. */
export function FollowTagButton({ tag }: { tag: string }) {
  const { status } = useAuthState();
  const signedIn = status === 'authenticated';
  const { currentData } = useGetFollowedTagsQuery(undefined, { skip: !signedIn });
  const [setFollowing, { isLoading }] = useSetTagFollowingMutation();
  if (!signedIn) return null;
  // the server names tags whatever their case
  const following = currentData?.tags.some((name) => name.toLowerCase() === tag.toLowerCase());
  return (
    <FollowButton
      label={{ follow: `Follow #${tag}`, following: `Following #${tag}` }}
      following={isLoading ? undefined : following}
      change={(follow) => setFollowing({ tag, follow })}
      said={{ followed: `You follow #${tag}: new posts in it will notify you.`, unfollowed: `You no longer follow #${tag}.` }}
    />
  );
}
