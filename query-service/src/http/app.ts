import {
  createHttpApp,
  databaseCheck,
  errorHandler,
  healthRoutes,
  notFoundHandler,
  optionalAuth,
  requestLogger,
  type Knex,
  type Logger,
  type TokenVerifier,
  bulkhead,
  cancelWhenClientLeaves,
  trackAnswer,
} from '@forum/platform';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HistoryReader } from '@forum/eventstore';
import { allProjections, projectionsCheck } from '@forum/projections';
import type { Express } from 'express';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';
import { createSharedPosts } from '../reads/shared-posts.ts';
import { createAdminStore } from '../store/admin.ts';
import { createCommunityStore } from '../store/community.ts';
import { createPostsStore, createTagsStore } from '../store/posts.ts';
import { createUsersStore } from '../store/users.ts';
import { minPosition } from './consistency.ts';
import { adminRoutes, announcementRoutes } from './admin.ts';
import { communityRoutes } from './community.ts';
import { meRoutes } from './me.ts';
import { postRoutes } from './posts.ts';
import { tagRoutes } from './tags.ts';
import { viewer, type Registrar } from './viewer.ts';
import { createViewerCache } from './viewer-cache.ts';
import { createVisitorCache } from './visitor-cache.ts';
import { createHotReads } from './hot-reads.ts';

export interface QueryAppDeps {
  readonly db: Knex;
  /** Reads the event log: the admins' history of a user or a post (the one read that is not of a read model). */
  readonly events: HistoryReader;
  readonly watcher: CheckpointWatcher;
  readonly verifyToken: TokenVerifier;
  /** Records a subject's first authenticated request on the write side. */
  readonly registrar: Registrar;
  /** ADMIN_EMAILS (normalised): a member whose token now vouches for a listed address is sent to the registrar once more, to be made admin. */
  readonly adminEmails?: readonly string[];
  readonly logger: Logger;
  /** Longest wait for X-Min-Position. */
  readonly maxWaitMs: number;
  /** Readiness fails when a live projection is further behind than this many events. */
  readonly maxLag: number;
  /** The full-text search's bulkhead: how many run at once, how many may wait, and how long. */
  readonly search: { readonly concurrency: number; readonly queue: number; readonly maxWaitMs: number };
  /** Visitors' answers kept in memory (see visitorCache); 0: none. */
  readonly visitorCacheEntries: number;
  /** Signed-in callers' forum records kept in memory (see ViewerCache); 0: none. */
  readonly viewerCacheEntries: number;
  /** Rows of posts and pages of comments kept in memory for every reader (see SharedPosts); 0: none. */
  readonly sharedReadRows: number;
}


/**
 * The read side's handler for an HTTP server: visitors' answers kept in memory, and the visitors'
 * hottest reads, go out before any framework sees the request; the rest goes to the app. Start
 * the server with `serveDirectly` first, not with the app alone (which answers the same, only slower).
 */
export interface QueryApp extends Express {
  /**
   * Answers `req` from memory (see VisitorCache.serve), or as one of the hot reads (see
   * createHotReads), and returns true; else false, and the app is to take it.
   */
  serveDirectly(req: IncomingMessage, res: ServerResponse): boolean;
}

/** The read side of /api: GET and HEAD, from the read models (and, for the admins' histories, the log). */
export function createQueryApp(deps: QueryAppDeps): QueryApp {
  const app = createHttpApp();
  const cache = createVisitorCache(deps.watcher, { maxEntries: deps.visitorCacheEntries });
  app.use(requestLogger(deps.logger));
  app.use(cancelWhenClientLeaves);
  app.use(
    healthRoutes({
      database: () => databaseCheck(deps.db),
      projections: () => projectionsCheck(deps.db, deps.maxLag, allProjections),
    }),
  );
  const users = createUsersStore(deps.db);
  const posts = createPostsStore(deps.db);
  const community = createCommunityStore(deps.db);
  const shared = createSharedPosts({ posts, community }, deps.watcher, { maxRows: deps.sharedReadRows });
  const serveHot = createHotReads({ posts, community, shared }, cache, deps.logger);
  app.use(
    '/api',
    optionalAuth(deps.verifyToken),
    // wait for the caller's position first: their own record may be what they just changed
    minPosition(deps.watcher, deps.maxWaitMs),
    viewer(createViewerCache(users, deps.watcher, { maxEntries: deps.viewerCacheEntries }), deps.registrar, deps.watcher, deps.maxWaitMs, deps.adminEmails),
    cache.middleware,
    meRoutes(),
    // before postRoutes: /posts/search is not a post id
    communityRoutes(community, shared, bulkhead({ what: 'searches', ...deps.search })),
    postRoutes(posts, shared, users),
    tagRoutes(createTagsStore(deps.db)),
    adminRoutes(createAdminStore(deps.db), users, deps.events),
    announcementRoutes(createAdminStore(deps.db)),
  );
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return Object.assign(app, {
    serveDirectly(req: IncomingMessage, res: ServerResponse) {
      return cache.serve(req, res, () => trackAnswer(deps.logger, req, res)) || serveHot(req, res);
    },
  });
}
