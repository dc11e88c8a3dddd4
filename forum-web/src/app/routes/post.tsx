import { useParams } from 'react-router-dom';
import { PostComments } from '../../features/comments';
import { PostDetails } from '../../features/posts';

/** /post/:id (spec §2 Post detail): the post, then its comments. */
export function PostPage() {
  const { id = '' } = useParams();
  // Keyed so a new post starts from its own loading state.
  return (
    <PostDetails key={id} id={id}>
      <PostComments postId={id} />
    </PostDetails>
  );
}
