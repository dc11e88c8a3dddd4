import { tagFeedPath } from '@forum/contracts';
import { useParams } from 'react-router-dom';
import { FeedLink } from '../../components/FeedLink';
import { FollowTagButton } from '../../features/follows';
import { TaggedPosts } from '../../features/tags';

/** /tags/:tag (spec §2 Tag page), with Follow for a member, and the tag's feed named in the head. */
export function TagPage() {
  const { tag = '' } = useParams();
  return (
    <>
      <FeedLink href={tagFeedPath(tag)} title={`Posts tagged ${tag}`} />
      <TaggedPosts key={tag} tag={tag} action={(name) => <FollowTagButton tag={name} />} />
    </>
  );
}
