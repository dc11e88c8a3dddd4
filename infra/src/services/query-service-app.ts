import { createLogger, createTokenVerifier, type HttpServer } from '@forum/platform';
import { openEventStore } from '../event-store.ts';
import { createCheckpointWatcher, createQueryServer, createReadDb, httpRegistrar, readLimits, startLiveChanges, streamLimits, type QueryServiceConfig } from '@forum/query-service';

export interface RunningQueryService {
  readonly server: HttpServer;
  /** Where it answers, e.g. http://127.0.0.1:3002. */
  readonly url: string;
  /** Ends its streams, then closes the server and what it holds. */
  stop(): Promise<void>;
}

/** The query-service on its own (the distributed layout), against DATABASE_URL (its reads on READ_DATABASE_URL when set), listening on PORT. */
export async function startQueryService(config: QueryServiceConfig): Promise<RunningQueryService> {
  const logger = createLogger('query-service', config.LOG_LEVEL, { format: config.LOG_FORMAT });
  const db = createReadDb(config.DATABASE_URL, config);
  const watcher = createCheckpointWatcher(config.DATABASE_URL, config, logger);
  await watcher.start();
  // the admins' history of a user or a post reads the event log, and the change stream follows it
  const events = await openEventStore({ eventStoreUrl: config.EVENTSTORE_URL, databaseUrl: config.DATABASE_URL }, { poolSize: 3, logger });
  const live = await startLiveChanges({ store: events, watcher, db, logger: logger.child({ component: 'live' }), settings: streamLimits(config) });
  const server = createQueryServer({
    db,
    events,
    watcher,
    verifyToken: createTokenVerifier({ issuer: config.OIDC_ISSUER, audience: config.OIDC_AUDIENCE, jwksUrl: config.OIDC_JWKS_URL }),
    registrar: httpRegistrar(config.COMMAND_SERVICE_URL),
    adminEmails: config.ADMIN_EMAILS,
    logger,
    ...readLimits(config),
    live,
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
      await db.destroy();
    },
  };
}
