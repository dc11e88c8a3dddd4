import { useParams } from 'react-router-dom';
import { TaggedPosts } from '../../features/tags';

/** /tags/:tag (spec §2 Tag page). */
export function TagPage() {
  const { tag = '' } = useParams();
  return <TaggedPosts key={tag} tag={tag} />;
}
