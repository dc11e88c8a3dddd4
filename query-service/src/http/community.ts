import {
  EmailParams,
  pageCursor,
  PostCommentsQuery,
  PostIdOfCommentsParams,
  PostIdParams,
  rangeOr,
  CommentsPage,
  HEADER_TOTAL_COUNT,
  SearchPostsQuery,
  CommentItem,
  PostListItem,
  PostsPage,
  SearchPage,
  ReportedComment,
  TopVotedUser,
  UserProfile,
  UNPAGED_LIST_MAX,
} from '@forum/contracts';
import { NotFoundError, type RequestHook } from '@forum/platform';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PostCache } from '../reads/post-cache.ts';
import type { CommentRow, CommentsPageOf, CommunityStore, ReportRow } from '../store/community.ts';
import type { UserRow } from '../store/users.ts';
import { listItem } from './posts.ts';
import { adminOnly, isStaff, maySeeEmail } from './access.ts';
import { rangeAnswers, rangeQuery, sendRange, totalCountHeaders } from './range.ts';

/** A comment as `viewer` may see it; `reported`: which comments of the page they reported. */
const comment = (row: CommentRow, viewer: UserRow | undefined, reported: ReadonlySet<string> | undefined): CommentItem => ({
  _id: row.id,
  postId: row.post_id,
  text: row.text,
  authorName: row.author_name,
  authorId: row.author_profile_id,
  ...(maySeeEmail(viewer, row.author_id) ? { authorEmail: row.author_email } : {}),
  authorPhoto: row.author_photo,
  createdAt: row.created_at.toISOString(),
  ...(row.edited_at && { editedAt: row.edited_at.toISOString() }),
  revisionCount: row.revision_count,
  ...(viewer !== undefined ? { byMe: row.author_id === viewer.id, reportedByMe: reported?.has(row.id) === true } : {}),
  ...(row.hidden_at && { hidden: { reason: row.hidden_reason ?? '', hiddenAt: row.hidden_at.toISOString() } }),
});

const reportedComment = (row: ReportRow): ReportedComment => ({
  _id: row.comment_id,
  reportId: row.report_id,
  text: row.text,
  postId: row.post_id,
  author: { name: row.author_name, email: row.author_email, photoURL: row.author_photo },
  reporter: { name: row.reporter_name, email: row.reporter_email, photoURL: row.reporter_photo },
  feedback: row.feedback,
  reportedAt: row.reported_at.toISOString(),
  reportCount: row.report_count,
  warned: row.warned,
});

/**
 * The spec's search by tag (`page` absent: its array, newest first, at most UNPAGED_LIST_MAX, with
 * the full count in X-Total-Count), or a page of a tag's posts like the home page's.
 */
export async function taggedPosts(
  community: CommunityStore,
  tag: string,
  page: number | undefined,
): Promise<{ body: PostListItem[] | PostsPage; headers: Record<string, string> }> {
  const { rows, total } = await community.byTag(tag, page ?? null);
  if (page === undefined) return { body: rows.map(listItem), headers: totalCountHeaders(total) };
  return { body: { posts: rows.map(listItem), totalCount: total }, headers: {} };
}

/**
 * The spec's GET /api/comments/:postId: a post's first UNPAGED_LIST_MAX comments, oldest first, as
 * `viewer` may see them (emails for their authors and admins), and all of them counted in X-Total-Count.
 */
export async function commentsOfPost(
  cache: PostCache,
  postId: string,
  viewer: UserRow | undefined,
): Promise<{ body: CommentItem[]; headers: Record<string, string> }> {
  const { page, items } = await commentsAsSeen(cache, postId, { order: 'oldest', after: null, limit: UNPAGED_LIST_MAX }, viewer);
  return { body: items, headers: totalCountHeaders(page.total) };
}

/** GET /api/posts/:id/comments: a keyset page of a post's comments (see PostCommentsQuery), as `viewer` may see them. */
export async function postCommentsPage(cache: PostCache, postId: string, query: PostCommentsQuery, viewer: UserRow | undefined): Promise<CommentsPage> {
  const { page, items } = await commentsAsSeen(cache, postId, query, viewer);
  return { comments: items, nextCursor: page.next && pageCursor(query.order, page.next), totalCount: page.total };
}

/**
 * A page of a post's comments as everyone reads it (kept, see PostCache), then which of them
 * `viewer` reported; 404 without the post (or when staff hid it). Staff, and a member who wrote a
 * hidden post or comment there, read the page apart with what they may see of it, marked.
 */
async function commentsAsSeen(cache: PostCache, postId: string, query: CommentsPageOf, viewer: UserRow | undefined) {
  const view = !viewer ? null : isStaff(viewer) ? { staff: true as const } : (await cache.hidesFor(postId, viewer.id)) ? { memberId: viewer.id } : null;
  const page = view ? await cache.commentsWithHidden(postId, query, view) : await cache.comments(postId, query);
  if (!page) throw new NotFoundError('No such post');
  const reported =
    viewer &&
    (await cache.reportedBy(
      viewer.id,
      page.rows.map((row) => row.id),
    ));
  return { page, items: page.rows.map((row) => comment(row, viewer, reported)) };
}

/** The leaderboard: the users with the most up-votes on their live posts. */
export async function leaderboard(community: CommunityStore): Promise<TopVotedUser[]> {
  return (await community.topVoted()).map((row) => ({
    _id: row.user_id,
    name: row.name,
    photoURL: row.photo_url,
    totalVote: row.up_votes,
    hasProfile: row.has_profile,
  }));
}

/**
 * Comments, reported comments, notifications, the leaderboard, profiles and post search.
 * `searches`: the full-text search's bulkhead (see queryApi).
 */
export function communityRoutes(community: CommunityStore, cache: PostCache, searches: RequestHook): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    /**
     * GET /api/posts/search?tag=…|q=…[&page=n]. The spec's call (`tag` alone,
     * no `page`) answers its array (newest first, at most UNPAGED_LIST_MAX, the
     * full count in X-Total-Count); with `page` the answer is the home page's
     * `{posts, totalCount}`, 5 a page; with `q`, SearchPage (each post with its
     * snippet, `totalCountCapped`), 5 a page.
     */
    api.get(
      '/posts/search',
      {
        schema: {
          // SearchPage before PostsPage: a search's page read as a tag's page would lose its snippets
          answers: { 200: { body: z.union([SearchPage, PostsPage, PostListItem.array()]), headers: [HEADER_TOTAL_COUNT] } },
          errors: ['BUSY'],
          querystring: SearchPostsQuery,
        },
        config: { publicRead: true, sharedBody: true },
        // full-text searches take their turn in the bulkhead (before their input is checked); the spec's search by tag does not
        preValidation: (request, reply, done) => ((request.query as { q?: unknown }).q === undefined ? done() : searches(request, reply, done)),
      },
      async (request, reply) => {
        const { tag, q, page } = request.query;
        if (q === undefined) {
          const { body, headers } = await taggedPosts(community, tag!, page);
          return reply.headers(headers).send(body);
        }
        const { rows, total, capped } = await community.fullText(q, tag ?? null, page ?? 1);
        const body: SearchPage = { posts: rows.map((row) => ({ ...listItem(row), snippet: row.snippet })), totalCount: total, totalCountCapped: capped };
        return body;
      },
    );

    api.get(
      '/comments/:postId',
      {
        schema: { answers: { 200: { body: CommentItem.array(), headers: [HEADER_TOTAL_COUNT] } }, errors: ['NOT_FOUND'], params: PostIdOfCommentsParams },
        config: { publicRead: true },
      },
      async (request, reply) => {
        const { body, headers } = await commentsOfPost(cache, request.params.postId, request.viewer);
        return reply.headers(headers).send(body);
      },
    );

    api.get(
      '/posts/:id/comments',
      {
        schema: { answers: { 200: { body: CommentsPage } }, errors: ['NOT_FOUND'], params: PostIdParams, querystring: PostCommentsQuery },
        config: { publicRead: true },
      },
      async (request) => postCommentsPage(cache, request.params.id, request.query, request.viewer),
    );

    api.get(
      '/admin/reported-comments',
      {
        preValidation: adminOnly,
        schema: { answers: rangeAnswers(ReportedComment.array(), ReportedComment, [HEADER_TOTAL_COUNT]), queryParameters: rangeOr() },
      },
      async (request, reply) => {
        const range = rangeQuery(request);
        if (range) {
          const { rows, total } = await community.reports(range.end - range.start + 1, range.start, range.direction);
          return sendRange(
            reply,
            'reported-comments',
            rows.map((row) => ({ id: row.report_id, ...reportedComment(row) })),
            range.start,
            total,
          );
        }
        const { rows, total } = await community.reports(UNPAGED_LIST_MAX, 0);
        return reply.headers(totalCountHeaders(total)).send(rows.map(reportedComment));
      },
    );

    api.get('/users/top-voted', { schema: { answers: { 200: { body: TopVotedUser.array() } } }, config: { publicRead: true, sharedBody: true } }, async () =>
      leaderboard(community),
    );

    // open to anyone (the spec's call), and counted per client address: its answer says whether an email has an account
    api.get(
      '/user-profile/:email',
      {
        schema: { answers: { 200: { body: UserProfile } }, errors: ['NOT_FOUND', 'RATE_LIMITED'], params: EmailParams },
        config: { publicRead: true, accountLookup: true },
      },
      async (request) => {
        const user = await community.profile(request.params.email);
        if (!user) throw new NotFoundError('No such user');
        const recent = await community.recentPosts(user.id);
        const body: UserProfile = {
          user: {
            _id: user.id,
            name: user.name,
            photoURL: user.photo_url,
            role: user.role,
            isMember: user.is_member,
            badge: user.is_member ? 'Gold' : 'Bronze',
            ...(maySeeEmail(request.viewer, user.id) ? { email: user.email } : {}),
          },
          stats: {
            posts: Number(user.posts),
            comments: Number(user.comments),
            commentsReceived: Number(user.comments_received),
            upVotes: Number(user.up_votes),
          },
          recentPosts: recent.map(listItem),
        };
        return body;
      },
    );
    done();
  };
}
