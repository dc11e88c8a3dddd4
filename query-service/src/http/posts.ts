import { EmailParams, ListPostsQuery, PostIdParams, type PostCount, type PostDetail, type PostListItem, type PostsPage, type Vote } from '@forum/contracts';
import { summarize } from '@forum/contracts/markdown';
import { NotFoundError, parseInput } from '@forum/platform';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { PostCache } from '../reads/post-cache.ts';
import type { PostRow, PostsStore } from '../store/posts.ts';
import type { UserRow, UsersStore } from '../store/users.ts';
import { maySeeEmail, ownerOrAdmin } from './access.ts';
import { rangeQuery, sendRange, totalCountHeaders } from './range.ts';

type ListRow = Omit<PostRow, 'description' | 'author_id' | 'author_email'>;

export const listItem = (row: ListRow): PostListItem => ({
  _id: row.id,
  title: row.title,
  summary: summarize(row.summary),
  tags: row.tags,
  authorName: row.author_name,
  authorId: row.author_profile_id,
  authorPhoto: row.author_photo,
  createdAt: row.created_at.toISOString(),
  upVote: row.up_vote,
  downVote: row.down_vote,
  commentCount: row.comment_count,
  ...(row.edited_at && { editedAt: row.edited_at.toISOString() }),
  revisionCount: row.revision_count,
});

export function postDetail(row: PostRow & { my_vote?: Vote }, viewer: UserRow | undefined): PostDetail {
  return {
    ...listItem(row),
    description: row.description,
    ...(maySeeEmail(viewer, row.author_id) ? { authorEmail: row.author_email } : {}),
    ...(row.my_vote !== undefined ? { myVote: row.my_vote } : {}),
    ...(viewer !== undefined ? { byMe: row.author_id === viewer.id } : {}),
  };
}

/** The home page (spec §7 GET /posts): a page of the newest or most popular posts, and their total. */
export async function homePage(posts: PostsStore, { page, sort }: ListPostsQuery): Promise<PostsPage> {
  const { rows, total } = await posts.page(page, sort);
  return { posts: rows.map(listItem), totalCount: total };
}

/**
 * A post as `viewer` may see it: the post as everyone reads it (kept, see PostCache), with the
 * viewer's own vote read beside it, and the author's email for the author and admins.
 */
export async function postById(cache: PostCache, id: string, viewer: UserRow | undefined): Promise<PostDetail> {
  const [row, myVote] = await Promise.all([cache.post(id), viewer && cache.voteOf(id, viewer.id)]);
  if (!row) throw new NotFoundError('No such post');
  return postDetail(myVote === undefined ? row : { ...row, my_vote: myVote }, viewer);
}

/** The posts' reads: the home page, a post, and an author's posts and their count. */
export function postRoutes(posts: PostsStore, cache: PostCache, users: UsersStore): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    /** The spec's My Posts: the user's newest UNPAGED_LIST_MAX posts; all of them counted in X-Total-Count. */
    api.get('/my-posts/:email', { schema: { params: EmailParams } }, async (request, reply) => {
      const owner = await ownerOrAdmin(users, request, request.params.email, 'You can only see your own posts');
      const { rows, total } = await posts.byAuthor(owner.id);
      return reply.headers(totalCountHeaders(total)).send(rows.map(listItem));
    });

    api.get('/user-post-count/:email', { schema: { params: EmailParams } }, async (request) => {
      const owner = await ownerOrAdmin(users, request, request.params.email, 'You can only see your own posts');
      const body: PostCount = { count: await posts.countByAuthor(owner.id) };
      return body;
    });

    // react-admin's range, or the home page (whose query is checked only when it is not a range)
    api.get('/posts', { config: { publicRead: true, sharedBody: true } }, async (request, reply) => {
      const range = rangeQuery(request);
      if (range) {
        const { rows, total } = await posts.range(range.start, range.end, range.field, range.direction);
        return sendRange(
          reply,
          'posts',
          rows.map((row) => ({ id: row.id, ...listItem(row) })),
          range.start,
          total,
        );
      }
      return homePage(posts, parseInput(ListPostsQuery, request.query));
    });

    api.get('/posts/:id', { schema: { params: PostIdParams }, config: { publicRead: true } }, async (request) =>
      postById(cache, request.params.id, request.viewer),
    );
    done();
  };
}
