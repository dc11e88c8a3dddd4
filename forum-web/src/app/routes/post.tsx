import { useParams } from 'react-router-dom';
import { PostDetails } from '../../features/posts';

export function PostPage() {
  const { id = '' } = useParams();
  // Keyed so a new post starts from its own loading state.
  return <PostDetails key={id} id={id} />;
}
