import { useParams } from 'react-router-dom';
import { FollowTagButton } from '../../features/follows';
import { TaggedPosts } from '../../features/tags';

/** /tags/:tag (spec §2 Tag page), with Follow for a member. */
export function TagPage() {
  const { tag = '' } = useParams();
  return <TaggedPosts key={tag} tag={tag} action={(name) => <FollowTagButton tag={name} />} />;
}
