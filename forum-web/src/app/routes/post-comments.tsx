import { PostIdOfCommentsParams } from '@forum/contracts';
import { useParams } from 'react-router-dom';
import { PostNotFound } from '../../components/NotFoundMessage';
import { CommentsTable } from '../../features/comments';

/** /post/:postId/comments (spec §2 Post Comments), behind RequireAuth in the router; an id that cannot be a post's is not found. */
export function PostCommentsPage() {
  const { postId = '' } = useParams();
  if (!PostIdOfCommentsParams.safeParse({ postId }).success) return <PostNotFound />;
  return <CommentsTable key={postId} postId={postId} />;
}
