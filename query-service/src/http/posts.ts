import {
  EmailParams,
  HEADER_TOTAL_COUNT,
  ListPostsQuery,
  rangeOr,
  PostIdParams,
  PostCount,
  PostDetail,
  PostListItem,
  PostsPage,
  type Vote,
} from '@forum/contracts';
import { summarize } from '@forum/contracts/markdown';
import { AppError, NotFoundError, parseInput } from '@forum/platform';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { PostCache } from '../reads/post-cache.ts';
import type { PostRow, PostsStore } from '../store/posts.ts';
import type { UserRow, UsersStore } from '../store/users.ts';
import { isStaff, maySeeEmail, ownerOrAdmin } from './access.ts';
import { rangeAnswers, rangeQuery, sendRange, totalCountHeaders } from './range.ts';

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
  ...(row.pinned_at && { pinned: true as const }),
  ...(row.locked && { locked: true as const }),
  // only rows read for their author or staff hold it (My Posts, a hidden post's own page)
  ...(row.hidden_at && { hidden: { reason: row.hidden_reason ?? '', hiddenAt: row.hidden_at.toISOString() } }),
});

export function postDetail(row: PostRow & { my_vote?: Vote; reported_by_me?: boolean }, viewer: UserRow | undefined): PostDetail {
  return {
    ...listItem(row),
    description: row.description,
    ...(row.locked && row.lock_reason && { lockReason: row.lock_reason }),
    ...(maySeeEmail(viewer, row.author_id) ? { authorEmail: row.author_email } : {}),
    ...(row.my_vote !== undefined ? { myVote: row.my_vote } : {}),
    ...(viewer !== undefined ? { byMe: row.author_id === viewer.id } : {}),
    ...(row.reported_by_me !== undefined ? { reportedByMe: row.reported_by_me } : {}),
  };
}

/**
 * The home page (spec §7 GET /posts): a page of the newest or most popular posts, and their total;
 * the first page also has the pinned posts, which no page lists (issue #43).
 */
export async function homePage(posts: PostsStore, { page, sort }: ListPostsQuery): Promise<PostsPage> {
  const [{ rows, total }, pinned] = await Promise.all([posts.page(page, sort), page === 1 ? posts.pinned() : undefined]);
  return { posts: rows.map(listItem), totalCount: total, ...(pinned && { pinned: pinned.map(listItem) }) };
}

/**
 * A post as `viewer` may see it: the post as everyone reads it (kept, see PostCache), with the
 * viewer's own vote and report read beside it, and the author's email for the author and admins.
 * A post staff hid is read apart (never kept) and answered to its author and staff alone, with its
 * mark; to anyone else it is not there (404). A post that was deleted is 410 GONE.
 */
export async function postById(cache: PostCache, id: string, viewer: UserRow | undefined): Promise<PostDetail> {
  const [shown, myVote, reported] = await Promise.all([cache.post(id), viewer && cache.voteOf(id, viewer.id), viewer && cache.postReportedBy(id, viewer.id)]);
  const row = shown ?? (viewer ? await cache.hiddenPost(id) : null);
  if (!row && (await cache.wasDeleted(id))) throw new AppError('GONE', 'This post was deleted');
  if (!row || (row.hidden_at && !(isStaff(viewer) || row.author_id === viewer?.id))) throw new NotFoundError('No such post');
  return postDetail({ ...row, ...(myVote !== undefined && { my_vote: myVote }), ...(reported !== undefined && { reported_by_me: reported }) }, viewer);
}

/** The posts' reads: the home page, a post, and an author's posts and their count. */
export function postRoutes(posts: PostsStore, cache: PostCache, users: UsersStore): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    /** The spec's My Posts: the user's newest UNPAGED_LIST_MAX posts; all of them counted in X-Total-Count. */
    api.get(
      '/my-posts/:email',
      {
        schema: {
          answers: { 200: { body: PostListItem.array(), headers: [HEADER_TOTAL_COUNT] } },
          errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND'],
          params: EmailParams,
        },
      },
      async (request, reply) => {
        const owner = await ownerOrAdmin(users, request, request.params.email, 'You can only see your own posts');
        const { rows, total } = await posts.byAuthor(owner.id);
        return reply.headers(totalCountHeaders(total)).send(rows.map(listItem));
      },
    );

    api.get(
      '/user-post-count/:email',
      { schema: { answers: { 200: { body: PostCount } }, errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND'], params: EmailParams } },
      async (request) => {
        const owner = await ownerOrAdmin(users, request, request.params.email, 'You can only see your own posts');
        const body: PostCount = { count: await posts.countByAuthor(owner.id) };
        return body;
      },
    );

    // react-admin's range, or the home page (whose query is checked only when it is not a range)
    api.get(
      '/posts',
      { schema: { answers: rangeAnswers(PostsPage, PostListItem), queryParameters: rangeOr(ListPostsQuery) }, config: { publicRead: true, sharedBody: true } },
      async (request, reply) => {
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
      },
    );

    api.get(
      '/posts/:id',
      { schema: { answers: { 200: { body: PostDetail } }, errors: ['NOT_FOUND', 'GONE'], params: PostIdParams }, config: { publicRead: true } },
      async (request) => postById(cache, request.params.id, request.viewer),
    );
    done();
  };
}
