import { PostIdParams } from '@forum/contracts';
import { useParams } from 'react-router-dom';
import { PostNotFound } from '../../components/NotFoundMessage';
import { PostComments } from '../../features/comments';
import { FollowPostButton } from '../../features/follows';
import { PostDetails } from '../../features/posts';

/** /post/:id (spec §2 Post detail): the post (with Follow for a member), then its comments; an id that cannot be a post's is not found. */
export function PostPage() {
  const { id = '' } = useParams();
  if (!PostIdParams.safeParse({ id }).success) return <PostNotFound />;
  // Keyed so a new post starts from its own loading state.
  return (
    <PostDetails key={id} id={id} actions={<FollowPostButton postId={id} />}>
      <PostComments postId={id} />
    </PostDetails>
  );
}
