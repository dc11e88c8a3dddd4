import {
  adminEmails,
  createReadKnex,
  DatabaseUrl,
  eventStoreSettings,
  logSettings,
  metricsSettings,
  oidcSettings,
  Port,
  ServiceHost,
  ReadyMaxLag,
  TrustProxy,
  type Knex,
  type Logger,
  type ProxyTrust,
} from '@forum/platform';
import { SITEMAP_MAX_URLS } from '@forum/contracts';
import { CheckpointWatcher } from './store/checkpoint-watcher.ts';
import { z } from 'zod';

/** The read side's settings: the same in the query-service and in the embedded forum. */
export const readSettings = {
  /**
   * A hot standby of DATABASE_URL that the read models are read from (docs/replica.md): the read
   * pool and the projections' checkpoints are read there; the log, the commands and the
   * checkpoints' notices stay on DATABASE_URL. One server, not a balancer over several: the wait
   * for X-Min-Position reads the checkpoints where the pages are read.
   */
  READ_DATABASE_URL: DatabaseUrl.optional(),
  /** With READ_DATABASE_URL: readiness fails while the standby's reads may be older than this (its replay lag). */
  READY_MAX_REPLICA_LAG_MS: z.coerce.number().int().min(0).default(10_000),
  MIN_POSITION_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(3000),
  READY_MAX_LAG: ReadyMaxLag,
  /** Connections of the read pool. */
  READ_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(16),
  /** Every read statement's time limit (PostgreSQL's statement_timeout); past it the read answers 503 READ_TIMEOUT. */
  READ_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(3000),
  /** Full-text searches running at once (more wait, up to SEARCH_QUEUE, then 503 BUSY); keep it well under READ_POOL_SIZE. */
  SEARCH_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  SEARCH_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  /** Visitors' answers kept in memory until the read side's version changes (0: none kept, no ETags). */
  VISITOR_CACHE_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
  /** Signed-in callers' forum records kept in memory until the users projection moves (0: none kept). */
  VIEWER_CACHE_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
  /** Rows of posts and pages of comments kept in memory for every reader until the read side's version changes (0: none kept). */
  SHARED_READ_ROWS: z.coerce.number().int().min(0).max(10_000_000).default(20_000),
  /** Change streams (GET /api/stream) one process holds at once; more are refused with 503 BUSY and Retry-After. */
  STREAM_MAX: z.coerce.number().int().min(0).max(1_000_000).default(20_000),
  /** Change streams one client address holds at once (TRUST_PROXY says who the client is); more are refused with 429 RATE_LIMITED. */
  STREAM_MAX_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(32),
  /** Recent stream messages kept for clients that reconnect with Last-Event-ID; one further behind is told to refetch. */
  STREAM_REPLAY_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** How often an idle stream gets a comment line, so that proxies keep it open. */
  STREAM_HEARTBEAT_MS: z.coerce.number().int().min(10).max(600_000).default(20_000),
  /** Bytes a stream may have waiting for a client that does not read; past them the stream is ended (the client reconnects). */
  STREAM_SLOW_CLIENT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(64 * 1024),
  /**
   * The key that signs stream tickets (GET /api/stream/ticket): every query-service process behind one
   * address must share it. Unset: a random key per process, right for one process only.
   */
  STREAM_TICKET_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  /** Addresses per file of the sitemap (docs/seo.md): the protocol's 50,000 at most; fewer makes more, smaller files. */
  SITEMAP_URLS_PER_FILE: z.coerce.number().int().min(1).max(SITEMAP_MAX_URLS).default(SITEMAP_MAX_URLS),
};
type ReadSettings = z.infer<z.ZodObject<typeof readSettings>>;

/** The read pool of the settings: on READ_DATABASE_URL when set, else on `databaseUrl`. */
export const createReadDb = (databaseUrl: string, settings: ReadSettings, logger?: Logger): Knex =>
  createReadKnex(settings.READ_DATABASE_URL ?? databaseUrl, { max: settings.READ_POOL_SIZE, statementTimeoutMs: settings.READ_STATEMENT_TIMEOUT_MS, logger });

/** The checkpoint watcher of the settings: notices heard on `databaseUrl`, checkpoints read on READ_DATABASE_URL when set. */
export const createCheckpointWatcher = (databaseUrl: string, settings: ReadSettings, logger: Logger): CheckpointWatcher =>
  new CheckpointWatcher(databaseUrl, logger, settings.READ_DATABASE_URL ? { standbyUrl: settings.READ_DATABASE_URL } : {});

/** What queryApi takes of the settings. */
export const readLimits = (settings: ReadSettings) => ({
  maxWaitMs: settings.MIN_POSITION_WAIT_MS,
  search: { concurrency: settings.SEARCH_CONCURRENCY, queue: settings.SEARCH_QUEUE, maxWaitMs: settings.READ_STATEMENT_TIMEOUT_MS },
  visitorCacheEntries: settings.VISITOR_CACHE_ENTRIES,
  viewerCacheEntries: settings.VIEWER_CACHE_ENTRIES,
  sharedReadRows: settings.SHARED_READ_ROWS,
  ...(settings.READ_DATABASE_URL && { maxReplicaLagMs: settings.READY_MAX_REPLICA_LAG_MS }),
});

/** What discoveryRoutes takes of the settings, beside the forum's public address. */
export const discoveryLimits = (settings: ReadSettings) => ({
  urlsPerFile: settings.SITEMAP_URLS_PER_FILE,
  visitorCacheEntries: settings.VISITOR_CACHE_ENTRIES,
  maxWaitMs: settings.MIN_POSITION_WAIT_MS,
});

/** What the change stream takes of the settings (see startLiveChanges). */
export const streamLimits = (settings: ReadSettings & { readonly TRUST_PROXY: ProxyTrust }) => ({
  trustProxy: settings.TRUST_PROXY,
  maxStreams: settings.STREAM_MAX,
  maxStreamsPerClient: settings.STREAM_MAX_PER_CLIENT,
  replayMax: settings.STREAM_REPLAY_MAX,
  heartbeatMs: settings.STREAM_HEARTBEAT_MS,
  slowClientBytes: settings.STREAM_SLOW_CLIENT_BYTES,
  ticketSecret: settings.STREAM_TICKET_SECRET,
});

export const QueryServiceConfig = z.object({
  PORT: Port.default(3002),
  HOST: ServiceHost,
  DATABASE_URL: DatabaseUrl,
  ...eventStoreSettings,
  ...oidcSettings,
  ...logSettings,
  ...metricsSettings,
  /** The command-service's ADMIN_EMAILS: a member not registered yet is answered as their registration would make them (see viewer); set both alike. */
  ADMIN_EMAILS: adminEmails,
  /** Which proxies may say who the client is (X-Forwarded-For): the address a client's streams count against. */
  TRUST_PROXY: TrustProxy,
  /** Where browsers reach the forum (the gateway's PUBLIC_URL): the sitemap's and the feeds' addresses are absolute. */
  PUBLIC_URL: z.string().url().default('http://localhost:3000'),
  ...readSettings,
});
export type QueryServiceConfig = z.infer<typeof QueryServiceConfig>;
