/**
 * command-service on its own (the distributed layout): against DATABASE_URL
 * and the issuer at OIDC_ISSUER. The admin API's rebuilds reach the projections
 * through the command side's ProjectionControl port, wired here.
 */
import { mailerSettings } from '@forum/mailer';
import {
  createKnex,
  createLogger,
  createTokenVerifier,
  DEFAULT_MAIL_FROM,
  knexPoolUse,
  loadConfig,
  QUICK_QUERY_TIMEOUT_MS,
  unsubscribeSecret,
  unsubscribeTokens,
} from '@forum/platform';
import { z } from 'zod';
import { allProjections, createProjectionControl } from '@forum/projections';
import {
  CommandServiceConfig,
  createCommandServer,
  createForumCommands,
  createPostgresWriteLimits,
  keycloakIdentityAdminFrom,
  realmHandleWriter,
  realmRoleWriter,
  paymentProviderFrom,
  streamDirectory,
  startErasureList,
  startErasureReactor,
} from '@forum/command-service';
import { openEventStore } from '../event-store.ts';
import { startMetrics } from '../metrics.ts';
import { startForumMailer } from '../embedded/notification-mailer.ts';
import { startTracing } from '../tracing.ts';

const tracing = await startTracing('forum-command-service');

const config = loadConfig(
  CommandServiceConfig.extend({ ...mailerSettings, SMTP_URL: z.string().url().optional(), MAIL_FROM: z.string().min(3).default(DEFAULT_MAIL_FROM) }),
);
const logger = createLogger('command-service', config.LOG_LEVEL, { format: config.LOG_FORMAT });
const served = await startMetrics('command-service', config, logger);
const metrics = served?.metrics;
const store = await openEventStore(
  { eventStoreUrl: config.EVENTSTORE_URL, databaseUrl: config.DATABASE_URL },
  { logger: logger.child({ component: 'eventstore' }), metrics },
);
const db = createKnex(config.DATABASE_URL, { max: 5, logger });
// the write limits are on every command's way: their statements give up on a stalled server
const limitsDb = createKnex(config.DATABASE_URL, { max: 5, queryTimeoutMs: QUICK_QUERY_TIMEOUT_MS, logger });
metrics?.watchPool('main', knexPoolUse(db));
metrics?.watchPool('limits', knexPoolUse(limitsDb));
const limits = config.WRITE_LIMITS && (await createPostgresWriteLimits({ db: limitsDb, limits: config.WRITE_LIMITS, logger, metrics }));
// the identity provider's admin API, when configured: the accounts an email names, and erased members' accounts leave it too
const identityAdmin = keycloakIdentityAdminFrom(config);
const directory = streamDirectory(store, () => identityAdmin);
const reactor = startErasureReactor({ db, connectionString: config.DATABASE_URL, identity: identityAdmin, logger, graceMs: config.IDENTITY_REMOVAL_GRACE_MS });
// every erasure also goes into the erasure list kept outside the database, for restores
const erasureList = config.ERASURE_LIST ? startErasureList({ db, connectionString: config.DATABASE_URL, file: config.ERASURE_LIST, logger }) : null;
// the notifications' mailer runs beside it in every command service (they share its outbox); the unsubscribe links' secret is the forum's
const tokens = unsubscribeTokens(await unsubscribeSecret(db));
const mail = await startForumMailer({ config, db, databaseUrl: config.DATABASE_URL, origin: config.PUBLIC_URL, tokens, identity: identityAdmin, logger });
const server = createCommandServer({
  store,
  commands: createForumCommands(store, {
    adminEmails: config.ADMIN_EMAILS,
    payment: paymentProviderFrom(config),
    directory,
    handleWritten: realmHandleWriter(() => identityAdmin, logger),
    roleWritten: realmRoleWriter(() => identityAdmin, logger),
    ...(limits && { limits }),
    ...(metrics && { metrics }),
  }),
  directory,
  projections: createProjectionControl(db, allProjections),
  verifyToken: createTokenVerifier({ issuer: config.OIDC_ISSUER, audience: config.OIDC_AUDIENCE, jwksUrl: config.OIDC_JWKS_URL }),
  logger,
  clock: () => new Date(),
  forumOrigin: new URL(config.PUBLIC_URL).origin,
  unsubscribeTokens: tokens,
  trustProxy: config.TRUST_PROXY,
  ...(metrics && { metrics }),
});
await server.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'command-service listening');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'stopping');
    void server.close().then(async () => {
      await reactor.stop();
      await erasureList?.stop();
      await mail.stop();
      await store.close();
      await db.destroy();
      await limits?.close();
      await limitsDb.destroy();
      await served?.close();
      await tracing?.stop();
      process.exit(0);
    });
  });
}
