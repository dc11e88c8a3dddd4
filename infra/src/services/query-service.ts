/** query-service on its own (the distributed layout), against DATABASE_URL. */
import { createLogger, createTokenVerifier, loadConfig } from '@forum/platform';
import { openHistoryReader } from '@forum/eventstore';
import { CheckpointWatcher, createQueryServer, createReadDb, httpRegistrar, QueryServiceConfig, readLimits } from '@forum/query-service';

const config = loadConfig(QueryServiceConfig);
const logger = createLogger('query-service', config.LOG_LEVEL, { format: config.LOG_FORMAT });
const db = createReadDb(config.DATABASE_URL, config);
const watcher = new CheckpointWatcher(config.DATABASE_URL, logger);
await watcher.start();
// the admins' history of a user or a post reads the event log
const events = await openHistoryReader(config.DATABASE_URL);
const server = createQueryServer({
  db,
  events,
  watcher,
  verifyToken: createTokenVerifier({ issuer: config.OIDC_ISSUER, audience: config.OIDC_AUDIENCE, jwksUrl: config.OIDC_JWKS_URL }),
  registrar: httpRegistrar(config.COMMAND_SERVICE_URL),
  adminEmails: config.ADMIN_EMAILS,
  logger,
  ...readLimits(config),
});
await server.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'query-service listening');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(async () => {
      await watcher.close();
      await events.close();
      await db.destroy();
      process.exit(0);
    });
  });
}
