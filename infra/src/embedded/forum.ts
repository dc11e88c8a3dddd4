import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  commandApi,
  createForumCommands,
  createPostgresWriteLimits,
  keycloakIdentityAdminFrom,
  realmHandleWriter,
  realmRoleWriter,
  paymentProviderFrom,
  streamDirectory,
  startErasureList,
  startErasureReactor,
  type IdentityAdmin,
} from '@forum/command-service';
import type { EventStore } from '@forum/eventstore';
import { openEventStore } from '../event-store.ts';
import { startForumMailer } from './notification-mailer.ts';
import { startKafkaFeed } from '@forum/feed';
import {
  answerMismatch,
  createKnex,
  createLogger,
  createTokenVerifier,
  databaseCheck,
  knexPoolUse,
  QUICK_QUERY_TIMEOUT_MS,
  unsubscribeSecret,
  unsubscribeTokens,
  type Knex,
  type Logger,
} from '@forum/platform';
import type { FastifyPluginAsync, FastifySchema, RouteOptions } from 'fastify';
import { allProjections, buildLags, createProjectionControl, createProjectionRunner, projectionsCheck, type ProjectionRunner } from '@forum/projections';
import {
  createCheckpointWatcher,
  createReadDb,
  discoveryLimits,
  discoveryRoutes,
  queryApi,
  readLimits,
  standbyCheck,
  startLiveChanges,
  streamLimits,
  type CheckpointWatcher,
} from '@forum/query-service';
import type { IdentityRealm } from '@forum/identity';
import type { EmbeddedConfig } from './config.ts';
import { createGateway } from './gateway.ts';
import { forumDatabase } from './database.ts';
import { bindPublicPort } from './public-port.ts';
import { StopStack } from './stop-stack.ts';
import { createEmbeddedRealm, embeddedIdentityAdmin } from './realm.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from './seed.ts';
import { entityTimeline } from '../entity-timelines.ts';
import { startMetrics } from '../metrics.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface RunningForum {
  readonly url: string;
  readonly port: number;
  readonly issuer: string;
  readonly databaseUrl: string;
  readonly store: EventStore;
  readonly db: Knex;
  readonly realm: IdentityRealm | null;
  readonly runner: ProjectionRunner;
  /** The routes of the two services behind the gateway, as 'METHOD /api/path' (tests list them). */
  readonly apps: { readonly command: ServedApi; readonly query: ServedApi };
  readonly logger: Logger;
  /** Where its metrics are scraped (METRICS_PORT's listener); null when METRICS_PORT is unset. */
  readonly metricsUrl: string | null;
  stop(): Promise<void>;
}

export interface ForumOptions {
  /**
   * Keep every error the API's routes answer (ServedApi.errorsAnswered), and hold every success
   * answer to its route's declared answers as it is sent (ServedApi.answersNotAsDeclared): tests
   * hold the routes to their declarations, which the API document is made of.
   */
  readonly checkAnswers?: boolean;
}

/**
 * The whole product in one process: PostgreSQL (embedded unless DATABASE_URL),
 * the event store, the projection runner, command- and query-service, the
 * embedded identity realm (unless OIDC_ISSUER) and the gateway on one port.
 */
export async function startForum(
  config: EmbeddedConfig,
  logger: Logger = createLogger('forum', config.LOG_LEVEL, { format: config.LOG_FORMAT }),
  forumOptions: ForumOptions = {},
): Promise<RunningForum> {
  const stack = new StopStack(logger);
  const stopAll = () => stack.stopAll();
  try {
    // one endpoint for the whole process, on a port of its own (off unless METRICS_PORT)
    const served = await startMetrics('forum', config, logger);
    if (served) stack.push(() => served.close());
    const metrics = served?.metrics;
    const database = await forumDatabase(config, logger);
    stack.push(() => database.stop());
    const databaseUrl = database.url;

    const store = await openEventStore(
      { eventStoreUrl: config.EVENTSTORE_URL, databaseUrl },
      { poolSize: 20, logger: logger.child({ component: 'eventstore' }), metrics },
    );
    stack.push(() => store.close());
    const db = createKnex(databaseUrl, { max: 20, logger });
    stack.push(() => db.destroy());
    // the statements on requests' way outside the event store (the write limits, the readiness check) give up on a stalled server
    const requestDb = createKnex(databaseUrl, { max: 10, queryTimeoutMs: QUICK_QUERY_TIMEOUT_MS, logger });
    stack.push(() => requestDb.destroy());
    // the read side's own pool (on READ_DATABASE_URL's standby when set): its statements have a time limit the projections' must not have
    const readDb = createReadDb(databaseUrl, config, logger);
    stack.push(() => readDb.destroy());
    metrics?.watchPool('main', knexPoolUse(db));
    metrics?.watchPool('requests', knexPoolUse(requestDb));
    metrics?.watchPool('read', knexPoolUse(readDb));
    // the projections' lag as `forumctl status` reads it, on the pool whose statements give up on a stalled server
    metrics?.watchBuilds(() => buildLags(requestDb));

    // the query side beside the runner hears its checkpoints at once, not by NOTIFY (it reads them all as it starts);
    // with READ_DATABASE_URL these are hints of what to look for on the standby
    let watcher: CheckpointWatcher | null = null;
    const runner = createProjectionRunner({
      db,
      connectionString: databaseUrl,
      store,
      projections: allProjections,
      logger: logger.child({ component: 'projections' }),
      onCheckpoint: (notification) => watcher?.notified(notification),
    });
    await runner.start();
    stack.push(() => runner.stop());

    // the events' feed to Kafka, when KAFKA_BROKERS is set (docs/kafka.md)
    const feed = await startKafkaFeed({ settings: config, store, databaseUrl, logger: logger.child({ component: 'feed' }) });
    if (feed) stack.push(() => feed.stop());

    watcher = createCheckpointWatcher(databaseUrl, config, logger);
    await watcher.start();
    stack.push(() => watcher.close());
    const live = await startLiveChanges({
      store,
      watcher,
      db: readDb,
      logger: logger.child({ component: 'live' }),
      settings: streamLimits(config),
    });
    stack.push(() => live.close());
    metrics?.watchStreams(() => live.hub.size);

    const publicPort = await bindPublicPort(config);
    // the streams first: the server's close waits for every open request
    stack.push(async () => {
      live.endStreams();
      await publicPort.close();
    });
    const { url, internal, headers, port } = publicPort;

    const limits =
      config.WRITE_LIMITS &&
      (await createPostgresWriteLimits({ db: requestDb, limits: config.WRITE_LIMITS, logger: logger.child({ component: 'command-service' }), metrics }));
    if (limits) stack.push(() => limits.close());
    // the identity provider's accounts: the embedded realm's own store, made below, or an external Keycloak's admin API
    let identityAdmin: IdentityAdmin | null = keycloakIdentityAdminFrom(config);
    const directory = streamDirectory(store, () => identityAdmin);
    // the identity provider keeps a copy of each member's handle and moderator role for its tokens, written after the forum records them
    const handleWritten = realmHandleWriter(() => identityAdmin, logger);
    const roleWritten = realmRoleWriter(() => identityAdmin, logger);
    const options = { adminEmails: config.ADMIN_EMAILS, payment: paymentProviderFrom(config), directory, handleWritten, roleWritten };
    const commands = createForumCommands(store, { ...options, ...(limits && { limits }), ...(metrics && { metrics }) });

    let realm: IdentityRealm | null = null;
    let issuer = config.OIDC_ISSUER;
    let jwksUrl = config.OIDC_JWKS_URL;
    if (!issuer) {
      realm = await createEmbeddedRealm({ config, publicUrl: url, db, logger, commands, watcher });
      stack.push(() => realm!.close());
      issuer = realm.issuer;
      jwksUrl ??= `${internal}/realms/forum/protocol/openid-connect/certs`;
    }
    const verifyToken = createTokenVerifier({ issuer, audience: config.OIDC_AUDIENCE, jwksUrl });

    // an erased member's account leaves the identity provider too, reliably after the event
    if (realm) identityAdmin = embeddedIdentityAdmin(realm);
    const reactor = startErasureReactor({ db, connectionString: databaseUrl, identity: identityAdmin, logger, graceMs: config.IDENTITY_REMOVAL_GRACE_MS });
    stack.push(() => reactor.stop());
    // every erasure also goes into the erasure list kept outside the database, for restores
    if (config.ERASURE_LIST) {
      const list = startErasureList({ db, connectionString: databaseUrl, file: config.ERASURE_LIST, logger });
      stack.push(() => list.stop());
    }
    // the unsubscribe links' secret: the mailer signs with it, the command side checks with it
    const tokens = unsubscribeTokens(await unsubscribeSecret(db));
    const mail = await startForumMailer({ config, db, databaseUrl, origin: url, tokens, identity: identityAdmin, logger });
    stack.push(() => mail.stop());
    const commandRoutes: string[] = [];
    const commandOptions = new Map<string, RouteOptions>();
    const commandKept: KeptAnswers | undefined = forumOptions.checkAnswers ? { errors: [], mismatches: new Set() } : undefined;
    const command = listingRoutes(
      commandApi({
        store,
        commands,
        verifyToken,
        directory,
        projections: createProjectionControl(db, allProjections),
        logger: logger.child({ component: 'command-service' }),
        clock: () => new Date(),
        forumOrigin: url,
        unsubscribeTokens: tokens,
        trustProxy: config.TRUST_PROXY,
      }),
      commandRoutes,
      commandOptions,
      commandKept,
    );
    const queryRoutes: string[] = [];
    const queryOptions = new Map<string, RouteOptions>();
    const queryKept: KeptAnswers | undefined = forumOptions.checkAnswers ? { errors: [], mismatches: new Set() } : undefined;
    const query = listingRoutes(
      queryApi({
        db: readDb,
        events: store,
        entityTimelines: (kind, id) => entityTimeline(store, kind, id),
        watcher,
        verifyToken,
        adminEmails: config.ADMIN_EMAILS,
        logger: logger.child({ component: 'query-service' }),
        ...readLimits(config),
        live,
        // the abuse limits' one read: a lookup of an account by email, per client address
        ...(limits && { lookupLimit: async (address: string) => void (await limits.take('lookup', address)) }),
        trustProxy: config.TRUST_PROXY,
        ...(metrics && { metrics }),
      }),
      queryRoutes,
      queryOptions,
      queryKept,
    );
    const starting = await createGateway({
      api: [command, query],
      discovery: discoveryRoutes({ db: readDb, watcher, publicUrl: url, ...discoveryLimits(config) }),
      publicUrl: url,
      identity: realm?.handler,
      identityAdmin: realm?.adminHandler,
      forumWebDir: config.FORUM_WEB_DIR ? path.resolve(config.FORUM_WEB_DIR) : path.join(root, 'forum-web/dist'),
      adminWebDir: config.ADMIN_WEB_DIR ? path.resolve(config.ADMIN_WEB_DIR) : path.join(root, 'admin-web/dist'),
      logger,
      headers,
      metrics,
      checks: {
        database: () => databaseCheck(requestDb),
        eventStore: async () => ({ ok: true, detail: { head: (await store.head()).globalPosition.toString() } }),
        projections: async () => {
          const workers = runner.workers();
          const check = await projectionsCheck(db, config.READY_MAX_LAG, allProjections);
          return { ok: check.ok && workers.every((w) => w.state === 'running' || w.state === 'standby'), detail: check.detail };
        },
        // shown, never failing: the forum serves its members while Kafka is down, and the feed catches up after
        ...(feed && { feed: async () => ({ ok: true, detail: (await feed.check()).detail }) }),
        ...(config.READ_DATABASE_URL && { replica: standbyCheck(readDb, watcher, config.READY_MAX_REPLICA_LAG_MS) }),
      },
    });
    await starting.ready();
    publicPort.open(starting);

    // the demo data is the operator's, not a member's writes: not limited
    if (realm && config.DEMO_DATA && (await seedDemoData(realm, createForumCommands(store, options), logger)) > 0) {
      // the first start is over once its pages show the demo data (or the read side's longest wait has passed)
      await watcher.waitFor(await store.head(), config.MIN_POSITION_WAIT_MS);
    }

    return {
      url,
      port,
      issuer,
      databaseUrl,
      store,
      db,
      realm,
      runner,
      apps: {
        command: servedApi(commandRoutes, commandOptions, commandKept),
        query: servedApi(queryRoutes, queryOptions, queryKept),
      },
      logger,
      metricsUrl: served?.url ?? null,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** An error a route answered: the route ('METHOD /api/path'), the status and the code. */
export interface ErrorAnswered {
  readonly route: string;
  readonly status: number;
  readonly code: string;
}

export interface ServedApi {
  readonly routes: readonly string[];
  /** With ForumOptions.keepErrorsAnswered: each error answer of a route ('METHOD /api/path' as in `routes`), its status and code. */
  readonly errorsAnswered: readonly ErrorAnswered[];
  /** With ForumOptions.checkAnswers: each success answer that is not as its route declares ('METHOD /api/path: why', see answerMismatch), once each. */
  readonly answersNotAsDeclared: readonly string[];
  /** A route's schema ('METHOD /api/path' as in `routes`) as its contexts left it, the errors they declare with it (the API document's test). */
  schemaOf(route: string): FastifySchema | undefined;
}

/** What ForumOptions.checkAnswers keeps of a service's answers. */
interface KeptAnswers {
  readonly errors: ErrorAnswered[];
  readonly mismatches: Set<string>;
}

function servedApi(routes: readonly string[], options: ReadonlyMap<string, RouteOptions>, kept: KeptAnswers | undefined): ServedApi {
  return {
    routes,
    schemaOf: (route) => options.get(route)?.schema,
    errorsAnswered: kept?.errors ?? [],
    get answersNotAsDeclared() {
      return [...(kept?.mismatches ?? [])];
    },
  };
}

/**
 * `plugin`, listing the routes it registers into `routes` (the path as served, its prefix included;
 * HEAD left out) and, with `kept`, keeping their error answers and holding their success answers
 * (a JSON body, or none; a stream is not read) to their declarations (answerMismatch).
 */
function listingRoutes(plugin: FastifyPluginAsync, routes: string[], options: Map<string, RouteOptions>, kept?: KeptAnswers): FastifyPluginAsync {
  return async (context) => {
    if (kept)
      context.addHook('onSend', (request, reply, payload, done) => {
        const url = request.routeOptions.url;
        const route = `${request.method === 'HEAD' ? 'GET' : request.method} ${url}`;
        const status = reply.statusCode;
        if (status >= 400 && url !== undefined && typeof payload === 'string') {
          const code = /^\{"error":\{"code":"([^"]+)"/.exec(payload)?.[1];
          if (code) kept.errors.push({ route, status, code });
        } else if (status >= 200 && status < 300 && url !== undefined && (typeof payload === 'string' || payload === undefined || payload === null)) {
          const why = answerMismatch(options.get(route)?.schema, status, payload ?? '', (name) => reply.hasHeader(name));
          if (why) kept.mismatches.add(`${route}: ${why}`);
        }
        done(null, payload);
      });
    context.addHook('onRoute', (route) => {
      for (const name of [route.method].flat())
        if (name !== 'HEAD') {
          routes.push(`${name} ${route.url}`);
          // its schema is read when asked: the contexts inside add the errors their hooks answer after this hook
          options.set(`${name} ${route.url}`, route);
        }
    });
    await context.register(plugin);
  };
}

/**
 * What a start prints: where the forum, its console, its sign-in service (the OIDC issuer) and the
 * development mailbox are, the demo accounts, and `more` lines (the replicated layout's services).
 */
export function banner(forum: Pick<RunningForum, 'url' | 'issuer' | 'realm' | 'metricsUrl'>, more: readonly string[] = []): string {
  const lines = ['', `  Forum is running at ${forum.url}`, `  Admin console:      ${forum.url}/admin`, `  Sign-in service:    ${forum.issuer}`];
  if (forum.metricsUrl) lines.push(`  Metrics:            ${forum.metricsUrl}`);
  if (forum.realm?.mailbox)
    lines.push(
      `  Mailbox:            ${forum.realm.mailbox}`,
      '                      (the mails the forum sends: address confirmations, password resets, notifications)',
    );
  if (forum.realm) {
    lines.push('', `  Demo accounts (password ${DEMO_PASSWORD}):`);
    for (const account of DEMO_ACCOUNTS)
      lines.push(`    ${account.email.padEnd(20)} ${(account.roles as readonly string[]).includes('admin') ? 'admin' : 'user'}`);
  }
  lines.push(...more, '', '  Ctrl-C stops everything.', '');
  return lines.join('\n');
}
