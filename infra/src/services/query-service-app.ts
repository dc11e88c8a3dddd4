import { createPostgresWriteLimits, writeLimitSettings } from '@forum/command-service';
import { createKnex, createLogger, createTokenVerifier, knexPoolUse, QUICK_QUERY_TIMEOUT_MS, type HttpServer } from '@forum/platform';
import type { z } from 'zod';
import { allProjections, projectionsCheck } from '@forum/projections';
import { entityTimeline } from '../entity-timelines.ts';
import { openEventStore } from '../event-store.ts';
import { startMetrics } from '../metrics.ts';
import {
  createCheckpointWatcher,
  createQueryServer,
  createReadDb,
  discoveryLimits,
  QueryServiceConfig,
  readLimits,
  startLiveChanges,
  streamLimits,
} from '@forum/query-service';

/**
 * The query-service's settings, and the abuse limits' (WRITE_LIMITS): their `lookup` kind counts
 * the lookups of an account by email per client address, in the same table as the command
 * services' writes, on DATABASE_URL (never the standby of READ_DATABASE_URL).
 */
export const QueryServiceEntryConfig = QueryServiceConfig.extend(writeLimitSettings);
export type QueryServiceEntryConfig = z.infer<typeof QueryServiceEntryConfig>;

export interface RunningQueryService {
  readonly server: HttpServer;
  /** Where it answers, e.g. http://127.0.0.1:3002. */
  readonly url: string;
  /** Ends its streams, then closes the server and what it holds. */
  stop(): Promise<void>;
}

/** The query-service on its own (the distributed layout), against DATABASE_URL (its reads on READ_DATABASE_URL when set), listening on PORT. */
export async function startQueryService(config: QueryServiceEntryConfig): Promise<RunningQueryService> {
  const logger = createLogger('query-service', config.LOG_LEVEL, { format: config.LOG_FORMAT });
  const served = await startMetrics('query-service', config, logger);
  const metrics = served?.metrics;
  const db = createReadDb(config.DATABASE_URL, config, logger);
  // the abuse limits count on the primary (DATABASE_URL), never on the standby the reads may use
  const limitsDb = createKnex(config.DATABASE_URL, { max: 2, queryTimeoutMs: QUICK_QUERY_TIMEOUT_MS, logger });
  metrics?.watchPool('read', knexPoolUse(db));
  metrics?.watchPool('limits', knexPoolUse(limitsDb));
  const limits = config.WRITE_LIMITS && (await createPostgresWriteLimits({ db: limitsDb, limits: config.WRITE_LIMITS, logger, metrics }));
  const watcher = createCheckpointWatcher(config.DATABASE_URL, config, logger);
  await watcher.start();
  // the admins' history of a user or a post reads the event log, and the change stream follows it
  const events = await openEventStore({ eventStoreUrl: config.EVENTSTORE_URL, databaseUrl: config.DATABASE_URL }, { poolSize: 3, logger, metrics });
  const live = await startLiveChanges({ store: events, watcher, db, logger: logger.child({ component: 'live' }), settings: streamLimits(config) });
  metrics?.watchStreams(() => live.hub.size);
  const server = createQueryServer({
    db,
    events,
    entityTimelines: (kind, id) => entityTimeline(events, kind, id),
    watcher,
    verifyToken: createTokenVerifier({ issuer: config.OIDC_ISSUER, audience: config.OIDC_AUDIENCE, jwksUrl: config.OIDC_JWKS_URL }),
    adminEmails: config.ADMIN_EMAILS,
    logger,
    ...readLimits(config),
    live,
    ...(limits && { lookupLimit: async (address: string) => void (await limits.take('lookup', address)) }),
    trustProxy: config.TRUST_PROXY,
    projectionsReady: () => projectionsCheck(db, config.READY_MAX_LAG, allProjections),
    ...(metrics && { metrics }),
    discovery: { publicUrl: config.PUBLIC_URL.replace(/\/$/, ''), ...discoveryLimits(config) },
  });
  const url = await server.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT }, 'query-service listening');
  return {
    server,
    url: url.replace('[::1]', '127.0.0.1'),
    async stop() {
      // the streams end first (the server's preClose), so the close waits for none of them
      await server.close();
      await live.close();
      await watcher.close();
      await events.close();
      await limits?.close();
      await limitsDb.destroy();
      await db.destroy();
      await served?.close();
    },
  };
}
