import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEADER_MIN_POSITION, ListPostsQuery, PostCommentsQuery, PostIdOfCommentsParams, PostIdParams, SearchPostsQuery } from '@forum/contracts';
import { cancelledIfClientLeaves, errorAnswer, parseQueryString, trackAnswer, type Logger } from '@forum/platform';
import { z } from 'zod';
import type { SharedPosts } from '../reads/shared-posts.ts';
import type { CommunityStore } from '../store/community.ts';
import type { PostsStore } from '../store/posts.ts';
import { commentsOfPost, leaderboard, postCommentsPage, taggedPosts } from './community.ts';
import { homePage, postById } from './posts.ts';
import type { VisitorCache } from './visitor-cache.ts';

/** An answer's body and its own headers. */
interface Answer {
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * One of the visitors' hottest reads: its path under /api (named groups: the path's parameters),
 * the query keys it takes, and its input (parsed as the app's route parses it) to its answer.
 */
interface HotRead<S extends z.ZodType> {
  readonly path: RegExp;
  readonly query: readonly string[];
  readonly input: S;
  answer(input: z.infer<S>): Promise<Answer>;
}

const hotRead = <S extends z.ZodType>(read: HotRead<S>): HotRead<z.ZodType> => read as unknown as HotRead<z.ZodType>;

/**
 * The visitors' hottest reads, answered without Express: the same answers as the app's routes
 * (the same functions make them), for half the CPU of going through Express, its router and
 * middleware (a post by id at a million events: 0.94 → 0.40 ms of the forum's CPU per read).
 *
 * Only what the app would answer the same way without its middleware: a GET or HEAD of one of
 * these paths with only the query keys it takes, no Authorization (a signed-in reader's answer
 * holds their own vote, their email) and no X-Min-Position (that read waits first, see
 * minPosition). Input the route would refuse goes to the app too, for its 400. What is answered
 * here gets what the app's middleware gives every request: the request id, the access log line,
 * the visitors' cache (validators, a 304, keeping the answer), and the cancel of its statement
 * when the client leaves; its errors get the app's error answers (errorAnswer).
 */
export function createHotReads(stores: { posts: PostsStore; community: CommunityStore; shared: SharedPosts }, cache: VisitorCache, logger: Logger) {
  const { posts, community, shared } = stores;
  // in the app's order: /posts/search is not a post id
  const reads = [
    hotRead({ path: /^\/posts$/, query: ['page', 'sort'], input: ListPostsQuery, answer: async (input) => ({ body: await homePage(posts, input) }) }),
    hotRead({
      path: /^\/posts\/search$/,
      query: ['tag', 'page'],
      input: SearchPostsQuery,
      answer: async ({ tag, page }) => taggedPosts(community, tag!, page),
    }),
    hotRead({ path: /^\/posts\/(?<id>[^/]+)$/, query: [], input: PostIdParams, answer: async ({ id }) => ({ body: await postById(shared, id, undefined) }) }),
    hotRead({
      path: /^\/posts\/(?<id>[^/]+)\/comments$/,
      query: ['order', 'after', 'limit'],
      input: PostIdParams.and(PostCommentsQuery),
      answer: async ({ id, ...page }) => ({ body: await postCommentsPage(shared, id, page, undefined) }),
    }),
    hotRead({ path: /^\/comments\/(?<postId>[^/]+)$/, query: [], input: PostIdOfCommentsParams, answer: async ({ postId }) => commentsOfPost(shared, postId, undefined) }),
    hotRead({ path: /^\/users\/top-voted$/, query: [], input: z.object({}), answer: async () => ({ body: await leaderboard(community) }) }),
  ];
  const minPosition = HEADER_MIN_POSITION.toLowerCase();

  /** The answer to `req` if it is one of the hot reads (then true: it is under way), else false, and the app is to take it. */
  return function serveHot(req: IncomingMessage, res: ServerResponse): boolean {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.authorization !== undefined || req.headers[minPosition] !== undefined) return false;
    const url = req.url ?? '';
    if (!url.startsWith('/api/')) return false;
    const mark = url.indexOf('?');
    const path = url.slice(4, mark < 0 ? undefined : mark);
    for (const read of reads) {
      const match = read.path.exec(path);
      if (!match) continue;
      let query: Record<string, unknown>;
      let params: Record<string, string>;
      try {
        // a query string that is not UTF-8 goes to the app too, for its 400
        query = mark < 0 ? {} : parseQueryString(url.slice(mark + 1));
        params = Object.fromEntries(Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]));
      } catch {
        return false;
      }
      if (Object.keys(query).some((key) => !read.query.includes(key))) return false;
      const input = read.input.safeParse({ ...query, ...params });
      if (!input.success) return false;
      respond(req, res, () => read.answer(input.data));
      return true;
    }
    return false;
  };

  function respond(req: IncomingMessage, res: ServerResponse, answer: () => Promise<Answer>) {
    trackAnswer(logger, req, res);
    const keep = cache.begin(req, res, req.url ?? '');
    if (keep === 'answered') return;
    const send = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}) => {
      if (res.headersSent || res.destroyed) return;
      const text = JSON.stringify(body);
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(text));
      res.statusCode = status;
      if (status === 200) keep?.(text);
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    cancelledIfClientLeaves(res, answer).then(
      ({ body, headers }) => send(200, body, headers),
      (error: unknown) => {
        const failed = errorAnswer(error);
        if (failed.unexpected) logger.error({ err: error, req: { id: req.id, method: req.method, url: req.url } }, 'unhandled error');
        send(failed.status, failed.body, failed.headers);
      },
    );
  }
}
