import {
  API_DOCUMENT_PATH,
  authenticate,
  bulkheadHook,
  cancelWhenClientLeavesHook,
  createHttpServer,
  databaseCheck,
  declareErrors,
  declareHeaders,
  healthPlugin,
  type HttpServer,
  type Knex,
  type Logger,
  type Metrics,
  type ProxyTrust,
  type ReadinessCheck,
  registerApiDocument,
  type TokenVerifier,
} from '@forum/platform';
import { HEADER_MIN_POSITION, HEADER_READ_BEHIND } from '@forum/contracts';
import type { HistoryReader } from '@forum/eventstore';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';
import { standbyCheck } from '../store/standby-check.ts';
import { createPostCache } from '../reads/post-cache.ts';
import { createAdminStore } from '../store/admin.ts';
import { createCommunityStore } from '../store/community.ts';
import { createNotificationsStore } from '../store/notifications.ts';
import { createPostsStore, createTagsStore } from '../store/posts.ts';
import { createReportQueueStore } from '../store/report-queue.ts';
import { createRevisionsStore } from '../store/revisions.ts';
import { createUsersStore } from '../store/users.ts';
import { guardErrors } from './access.ts';
import { minPosition } from './consistency.ts';
import { adminRoutes, announcementRoutes } from './admin.ts';
import { timeTravelRoutes, type EntityTimelines } from './time-travel.ts';
import { communityRoutes } from './community.ts';
import { notificationRoutes } from './notifications.ts';
import { meRoutes } from './me.ts';
import { moderationRoutes } from './moderation.ts';
import { notificationPreferenceRoutes } from './notification-preferences.ts';
import { profileRoutes } from './profiles.ts';
import { postRoutes } from './posts.ts';
import { revisionRoutes } from './revisions.ts';
import { tagRoutes } from './tags.ts';
import { streamRoutes, streamTicketRoutes } from './stream.ts';
import type { LiveChanges } from '../live/live-changes.ts';
import { viewer } from './viewer.ts';
import { createViewerCache } from './viewer-cache.ts';
import { createVisitorCache } from './visitor-cache.ts';
import { lookupLimitHook, type LookupLimit } from './lookup-limit.ts';
import { discoveryRoutes, type DiscoveryDeps } from '../discovery/routes.ts';

export interface QueryAppDeps {
  readonly db: Knex;
  /** Reads the event log: the admins' history of a user or a post (the one read that is not of a read model). */
  readonly events: HistoryReader;
  /** A user's or a post's states through its stream (the write side's fold, which the composition gives): the console's time travel. */
  readonly entityTimelines: EntityTimelines;
  readonly watcher: CheckpointWatcher;
  readonly verifyToken: TokenVerifier;
  /** ADMIN_EMAILS (normalised): a member whose token vouches for a listed address is answered as an admin, as the write side makes them. */
  readonly adminEmails?: readonly string[];
  readonly logger: Logger;
  /** Longest wait for X-Min-Position. */
  readonly maxWaitMs: number;
  /** Set when `db` is a hot standby (READ_DATABASE_URL): readiness fails while its reads may be older than this. */
  readonly maxReplicaLagMs?: number;
  /** The full-text search's bulkhead: how many run at once, how many may wait, and how long. */
  readonly search: { readonly concurrency: number; readonly queue: number; readonly maxWaitMs: number };
  /** Visitors' answers kept in memory (see visitorCache); 0: none. */
  readonly visitorCacheEntries: number;
  /** Signed-in callers' forum records kept in memory (see ViewerCache); 0: none. */
  readonly viewerCacheEntries: number;
  /** Rows of posts and pages of comments kept in memory for every reader (see PostCache); 0: none. */
  readonly sharedReadRows: number;
  /** The change stream of this process (startLiveChanges): GET /api/stream serves its hub. */
  readonly live: LiveChanges;
  /** Lookups of an account by email, counted per client address (none: not limited). */
  readonly lookupLimit?: LookupLimit;
  /** Which proxies may say who the client is (TRUST_PROXY): the address a lookup counts against. */
  readonly trustProxy?: ProxyTrust;
  /** The time a suspension's end is compared with (the system clock unless a test sets one). */
  readonly clock?: () => Date;
  /** The process's metrics: the memory's lookups are counted into them (the answers' times are the server's). */
  readonly metrics?: Metrics;
}

/** A visitor's public read whose copy (If-None-Match, the ETag it was given) is still the current one. */
const NOT_MODIFIED = { body: null, description: 'Not Modified: the copy of the ETag sent in If-None-Match is current' };

/**
 * The read side of /api (register it with `{ prefix: '/api' }`): GET and HEAD, from the read models
 * (and, for the admins' histories, the log), and the change stream (GET /api/stream, which none of
 * the hooks below concern). The hooks, in order, for every read (and for no other route: the
 * plugin is encapsulated):
 * 0. a lookup of an account by email counted against the caller's address (lookupLimitHook);
 * 1. a visitor's public read answered from memory (VisitorCache.visitors): nothing else runs;
 * 2. the read's statements cancelled when the client leaves;
 * 3. the caller's token, if one is sent (a bad one is 401) → `request.principal`;
 * 4. X-Min-Position: wait for the caller's position first, since their own record may be what they just changed;
 * 5. the caller's forum record (viewer: a member not registered yet from their token, ADMIN_EMAILS, a refused account's 401) → `request.viewer`;
 * 6. the memory again, now that the caller is known (VisitorCache.afterViewer);
 * then each route's own checks (admins only, the search bulkhead), its input, and its answer.
 */
export function queryApi(deps: QueryAppDeps): FastifyPluginAsync {
  return async (instance) => {
    const users = createUsersStore(deps.db);
    const records = createViewerCache(users, deps.watcher, { maxEntries: deps.viewerCacheEntries });
    // the change stream, beside the reads and outside their hooks (see streamRoutes); its streams end before the server waits for its requests
    await instance.withTypeProvider<ZodTypeProvider>().register(streamRoutes(deps.live, records));
    instance.addHook('preClose', (done) => {
      deps.live.endStreams();
      done();
    });
    await instance.register(async (context) => {
      const api = context.withTypeProvider<ZodTypeProvider>();
      const cache = createVisitorCache(deps.watcher, { maxEntries: deps.visitorCacheEntries, metrics: deps.metrics });
      const admin = createAdminStore(deps.db);
      const posts = createPostsStore(deps.db);
      const community = createCommunityStore(deps.db);
      const postCache = createPostCache({ posts, community }, deps.watcher, { maxRows: deps.sharedReadRows });
      api.addHook('onRequest', lookupLimitHook(deps.lookupLimit, deps.trustProxy));
      api.addHook('onRequest', cache.visitors);
      api.addHook('onRequest', cancelWhenClientLeavesHook);
      api.addHook('onRequest', authenticate(deps.verifyToken, { required: false }));
      api.addHook('onRequest', minPosition(deps.watcher, deps.maxWaitMs));
      api.addHook('onRequest', viewer(records, deps.adminEmails));
      api.addHook('onRequest', cache.afterViewer);
      api.addHook('onSend', cache.keep);
      // a bad token, a refused account, a read out of time; and what each route's guard answers
      declareErrors(api, ['UNAUTHENTICATED', 'ACCOUNT_DISABLED', 'READ_TIMEOUT']);
      declareErrors(api, guardErrors);
      // every read waits for X-Min-Position (minPosition); a public read may answer a visitor's If-None-Match with 304 (the visitors' cache)
      declareHeaders(api, { request: [HEADER_MIN_POSITION], answer: [HEADER_READ_BEHIND] });
      api.addHook('onRoute', (route) => {
        if (route.config?.publicRead) route.schema = { ...route.schema, answers: { ...route.schema?.answers, 304: NOT_MODIFIED } };
      });
      await api.register(meRoutes(deps.clock));
      await api.register(notificationPreferenceRoutes(deps.db));
      await api.register(communityRoutes(community, postCache, bulkheadHook({ what: 'searches', ...deps.search })));
      await api.register(notificationRoutes(createNotificationsStore(deps.db), community));
      await api.register(postRoutes(posts, postCache, users));
      await api.register(profileRoutes(community, users));
      await api.register(revisionRoutes(createRevisionsStore(deps.db)));
      await api.register(tagRoutes(createTagsStore(deps.db)));
      await api.register(adminRoutes(admin, users, deps.events, deps.clock));
      await api.register(timeTravelRoutes(deps.events, deps.entityTimelines, deps.db));
      await api.register(announcementRoutes(admin));
      await api.register(moderationRoutes(createReportQueueStore(deps.db), deps.clock));
      await api.register(streamTicketRoutes(deps.live));
    });
  };
}

/**
 * The query-service on its own (the distributed layout): health and readiness, and queryApi under /api.
 * `projectionsReady`: whether the projections' live builds are caught up and usable (the composition
 * asks the projections, whose builders the query side does not import).
 */
export function createQueryServer(
  deps: QueryAppDeps & { readonly projectionsReady: ReadinessCheck; readonly discovery: Omit<DiscoveryDeps, 'db' | 'watcher'> },
): HttpServer {
  const server = createHttpServer({ logger: deps.logger, metrics: deps.metrics });
  // its part of the API document, for the gateway to merge with the command-service's (the replicated layout)
  void registerApiDocument(server);
  server.get(API_DOCUMENT_PATH, () => server.swagger());
  server.register(
    healthPlugin(
      {
        database: () => databaseCheck(deps.db),
        projections: deps.projectionsReady,
        ...(deps.maxReplicaLagMs !== undefined && { replica: standbyCheck(deps.db, deps.watcher, deps.maxReplicaLagMs) }),
      },
      { metrics: deps.metrics },
    ),
  );
  server.register(queryApi(deps), { prefix: '/api' });
  // the sitemap and the feeds, at the paths the gateway forwards here (DISCOVERY_PATHS)
  server.register(discoveryRoutes({ db: deps.db, watcher: deps.watcher, ...deps.discovery }));
  return server;
}
