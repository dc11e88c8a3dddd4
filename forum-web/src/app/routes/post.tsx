import { commentsFeedPath, isStaffRole, PostIdParams } from '@forum/contracts';
import { loadMarkdownRenderer } from '@forum/web-ui';
import { useParams } from 'react-router-dom';
import { FeedLink } from '../../components/FeedLink';
import { PostNotFound } from '../../components/NotFoundMessage';
import { PostComments, useGetCommentsInfiniteQuery } from '../../features/comments';
import { FollowPostButton } from '../../features/follows';
import { PostDetails } from '../../features/posts';
import { useGetMeQuery } from '../../features/account/api/get-me';
import { useAuthState } from '../../lib/auth';
import { useGetPostQuery } from '../../lib/post';

// the post and its comments are Markdown: the renderer's chunk loads while the page asks for them (web-ui's loadMarkdownRenderer)
void loadMarkdownRenderer();

/**
 * /post/:id (spec §2 Post detail): the post (with Follow for a member), then its comments (no form on a
 * locked or hidden post, but for staff), their feed named in the head; an id that cannot be a post's is not found.
 */
export function PostPage() {
  const { id = '' } = useParams();
  if (!PostIdParams.safeParse({ id }).success) return <PostNotFound />;
  // Keyed so a new post starts from its own loading state.
  return <ValidPostPage key={id} id={id} />;
}

function ValidPostPage({ id }: { id: string }) {
  const { user } = useAuthState();
  const role = useGetMeQuery(undefined, { skip: !user }).data?.role;
  const post = useGetPostQuery(id).data;
  const locked = post?.locked ? { reason: post.lockReason } : undefined;
  // the first page of comments, as PostComments shows it (one read), for the page's JSON-LD
  const comments = useGetCommentsInfiniteQuery(id).data?.pages[0]?.comments;
  return (
    <PostDetails id={id} actions={<FollowPostButton postId={id} />} comments={comments}>
      {post && !post.hidden && <FeedLink href={commentsFeedPath(id)} title={`Comments on ${post.title}`} />}
      <PostComments postId={id} locked={locked} hidden={post?.hidden !== undefined} staff={role !== undefined && isStaffRole(role)} />
    </PostDetails>
  );
}
