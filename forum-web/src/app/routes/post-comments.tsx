import { useParams } from 'react-router-dom';
import { CommentsTable } from '../../features/comments';

/** /post/:postId/comments (spec §2 Post Comments), behind RequireAuth in the router. */
export function PostCommentsPage() {
  const { postId = '' } = useParams();
  return <CommentsTable key={postId} postId={postId} />;
}
