import { useAuthState } from '../../../lib/auth';
import { useGetPostFollowingQuery, useSetPostFollowingMutation } from '../api/follows';
import { FollowButton } from './FollowButton';

/** Follow on a post's page (a signed-in member's; nothing for a visitor): comments on it notify the member while pressed. */
export function FollowPostButton({ postId }: { postId: string }) {
  const { status } = useAuthState();
  const signedIn = status === 'authenticated';
  const { currentData } = useGetPostFollowingQuery(postId, { skip: !signedIn });
  const [setFollowing, { isLoading }] = useSetPostFollowingMutation();
  if (!signedIn) return null;
  return (
    <FollowButton
      label={{ follow: 'Follow', following: 'Following' }}
      following={isLoading ? undefined : currentData?.following}
      change={(follow) => setFollowing({ postId, follow })}
      said={{ followed: 'You follow this post: new comments will notify you.', unfollowed: 'You no longer follow this post.' }}
    />
  );
}
