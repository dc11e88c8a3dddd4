import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createForumCommands, paymentProviderFrom, streamDirectory, type IdentityAdmin } from '@forum/command-service';
import type { EventStore } from '@forum/eventstore';
import { startKafkaFeed } from '@forum/feed';
import type { IdentityRealm } from '@forum/identity';
import { createKnex, createLogger, databaseCheck, knexPoolUse, type Knex, type Logger } from '@forum/platform';
import { CheckpointWatcher } from '@forum/query-service';
import { createGateway } from '../embedded/gateway.ts';
import { forumDatabase } from '../embedded/database.ts';
import { openEventStore } from '../event-store.ts';
import { startMetrics } from '../metrics.ts';
import { bindPublicPort } from '../embedded/public-port.ts';
import { StopStack } from '../embedded/stop-stack.ts';
import { createEmbeddedRealm, embeddedIdentityAdmin, identityAdminEnv, newServiceAccount, type ServiceAccount } from '../embedded/realm.ts';
import { seedDemoData } from '../embedded/seed.ts';
import { freePort } from '@forum/platform/embedded-postgres';
import { apiProxy, discoveryProxy, servicesApiDocument } from './api-proxy.ts';
import type { ReplicatedConfig } from './config.ts';
import { ReplicaSet, replicasCheck } from './replica-set.ts';
import { ServiceProcess, type ServiceName } from './service-process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** How many processes of each service run (each default: REPLICAS). */
export interface ReplicaCounts {
  readonly command?: number;
  readonly query?: number;
  readonly projections?: number;
}

export interface ReplicatedForumOptions {
  /** The variables the services inherit (the supervisor's own environment, for `npm run start:replicated`). */
  readonly env: NodeJS.ProcessEnv;
  readonly logger?: Logger;
  readonly replicas?: ReplicaCounts;
  /** The services' logs: on this process's output (default), or kept and shown only when one fails to start. */
  readonly output?: 'inherit' | 'capture';
}

export interface ReplicatedForum {
  readonly url: string;
  readonly port: number;
  readonly issuer: string;
  readonly databaseUrl: string;
  /** The supervisor's own: the realm's account hooks and the demo data write through them. */
  readonly store: EventStore;
  readonly db: Knex;
  readonly realm: IdentityRealm | null;
  /** The embedded realm's service account, with which the command services call its admin API (none with OIDC_ISSUER). */
  readonly identityAdminClient: ServiceAccount | null;
  /** Every service process, by service (a test kills one, a bench reads their URLs). */
  readonly services: Readonly<Record<ServiceName, readonly ServiceProcess[]>>;
  /** The gateway's replica sets: which replicas are up, and how many requests each was sent. */
  readonly replicaSets: { readonly command: ReplicaSet; readonly query: ReplicaSet };
  readonly logger: Logger;
  /** Where the gateway's (this process's) metrics are scraped; null when METRICS_PORT is unset. Each service's are at its `metricsUrl`. */
  readonly metricsUrl: string | null;
  stop(): Promise<void>;
}

/**
 * The forum as separate processes against one PostgreSQL (embedded in DATA_DIR unless
 * DATABASE_URL): REPLICAS command services, query services and projection runners, each started
 * again when it dies; this process is the gateway on PORT (the web apps, the embedded identity
 * realm unless OIDC_ISSUER, and /api balanced over the replicas by apiProxy).
 */
export async function startReplicatedForum(config: ReplicatedConfig, options: ReplicatedForumOptions): Promise<ReplicatedForum> {
  const logger = options.logger ?? createLogger('forum', config.LOG_LEVEL, { format: config.LOG_FORMAT });
  const counts = { command: config.REPLICAS, query: config.REPLICAS, projections: config.REPLICAS, ...options.replicas };
  const stack = new StopStack(logger);
  // a Ctrl-C reaches every service too: none may be started again while all stop
  let noMoreRestarts = () => {};
  const stopAll = () => {
    noMoreRestarts();
    return stack.stopAll();
  };
  try {
    // the gateway's metrics (this process's); each service serves its own on a port of its own
    const served = await startMetrics('gateway', config, logger);
    if (served) stack.push(() => served.close());
    const metrics = served?.metrics;
    const database = await forumDatabase(config, logger);
    stack.push(() => database.stop());
    const databaseUrl = database.url;
    // the event store (its schema, in PostgreSQL) is made here, once, before any service starts
    const store = await openEventStore(
      { eventStoreUrl: config.EVENTSTORE_URL, databaseUrl },
      { poolSize: 3, logger: logger.child({ component: 'eventstore' }), metrics },
    );
    stack.push(() => store.close());
    const db = createKnex(databaseUrl, { max: 5, logger });
    stack.push(() => db.destroy());
    metrics?.watchPool('main', knexPoolUse(db));
    const watcher = new CheckpointWatcher(databaseUrl, logger);
    await watcher.start();
    stack.push(() => watcher.close());

    // the events' feed to Kafka, when KAFKA_BROKERS is set: one relay, in the supervisor (docs/kafka.md)
    const feed = await startKafkaFeed({ settings: config, store, databaseUrl, logger: logger.child({ component: 'feed' }) });
    if (feed) stack.push(() => feed.stop());

    const publicPort = await bindPublicPort(config);
    stack.push(() => publicPort.close());
    const { url, internal, headers, port } = publicPort;

    // the realm's account hooks and the demo data: commands of the supervisor's own, no limits
    let identityAdmin: IdentityAdmin | null = null;
    const commands = createForumCommands(store, {
      adminEmails: config.ADMIN_EMAILS,
      payment: paymentProviderFrom(config),
      directory: streamDirectory(store, () => identityAdmin),
    });
    let realm: IdentityRealm | null = null;
    let identityAdminClient: ServiceAccount | null = null;
    let issuer = config.OIDC_ISSUER;
    let jwksUrl = config.OIDC_JWKS_URL;
    if (!issuer) {
      // the command services reach the realm's admin API as they would a Keycloak's: as its service account
      // (accounts by email; erased members' accounts removed by their erasure reactors)
      identityAdminClient = newServiceAccount();
      realm = await createEmbeddedRealm({ config, publicUrl: url, db, logger, commands, watcher, serviceAccount: identityAdminClient });
      stack.push(() => realm!.close());
      issuer = realm.issuer;
      jwksUrl ??= `${internal}/realms/forum/protocol/openid-connect/certs`;
      identityAdmin = embeddedIdentityAdmin(realm);
    }

    const env: NodeJS.ProcessEnv = {
      ...options.env,
      DATABASE_URL: databaseUrl,
      OIDC_ISSUER: issuer,
      ...(jwksUrl && { OIDC_JWKS_URL: jwksUrl }),
      ...(identityAdminClient && identityAdminEnv(identityAdminClient, internal)),
      PUBLIC_URL: url,
      // every query service must accept the stream tickets the others sign
      STREAM_TICKET_SECRET: config.STREAM_TICKET_SECRET ?? randomBytes(32).toString('base64url'),
      // the gateway says who the client is (X-Forwarded-For, after its own TRUST_PROXY): the services trust that one hop
      TRUST_PROXY: '1',
    };
    // METRICS_PORT is the gateway's; the services take the ports after it, one each (any free ones when it is 0)
    let metricsPorts = config.METRICS_PORT ?? 0;
    const metricsPort = async () => (config.METRICS_PORT === undefined ? undefined : config.METRICS_PORT === 0 ? freePort() : ++metricsPorts);
    const services = {} as Record<ServiceName, ServiceProcess[]>;
    for (const [service, key] of [
      ['command-service', 'command'],
      ['query-service', 'query'],
      ['projections', 'projections'],
    ] as const) {
      services[service] = [];
      for (let i = 1; i <= counts[key]; i++) {
        services[service].push(
          new ServiceProcess({
            service,
            name: `${service}-${i}`,
            port: await freePort(),
            metricsPort: await metricsPort(),
            env,
            logger,
            output: options.output ?? 'inherit',
          }),
        );
      }
    }
    const all = Object.values(services).flat();
    noMoreRestarts = () => all.forEach((replica) => replica.stopRestarting());
    // however this process ends (an uncaught error included), no service outlives it
    const killAll = () => all.forEach((replica) => replica.kill('SIGKILL'));
    process.on('exit', killAll);
    stack.push(async () => {
      await Promise.all(all.map((replica) => replica.stop()));
      process.off('exit', killAll);
    });
    // one runner first: it makes the projections' tables alone, and owns them; the others stand by
    const [owner, ...standbys] = services.projections;
    await owner!.start();
    await Promise.all([...standbys, ...services['command-service'], ...services['query-service']].map((replica) => replica.start()));

    const command = new ReplicaSet(
      'command-service',
      services['command-service'].map((s) => s.url),
      logger,
    );
    stack.push(() => command.close());
    const query = new ReplicaSet(
      'query-service',
      services['query-service'].map((s) => s.url),
      logger,
    );
    stack.push(() => query.close());
    const starting = await createGateway({
      api: [apiProxy({ command, query, trustProxy: config.TRUST_PROXY })],
      proxied: true,
      apiDocument: () => servicesApiDocument({ command, query }),
      discovery: discoveryProxy({ query, trustProxy: config.TRUST_PROXY }),
      publicUrl: url,
      identity: realm?.handler,
      identityAdmin: realm?.adminHandler,
      forumWebDir: config.FORUM_WEB_DIR ? path.resolve(config.FORUM_WEB_DIR) : path.join(root, 'forum-web/dist'),
      adminWebDir: config.ADMIN_WEB_DIR ? path.resolve(config.ADMIN_WEB_DIR) : path.join(root, 'admin-web/dist'),
      logger,
      headers,
      metrics,
      checks: {
        database: () => databaseCheck(db),
        commandService: () => Promise.resolve(replicasCheck(command)),
        queryService: () => Promise.resolve(replicasCheck(query)),
        // shown, never failing: the forum serves its members while Kafka is down (as npm start's)
        ...(feed && { feed: async () => ({ ok: true, detail: (await feed.check()).detail }) }),
        projections: async () => {
          const ready = await Promise.all(services.projections.map((runner) => runner.ready()));
          return { ok: ready.some(Boolean), detail: Object.fromEntries(services.projections.map((runner, i) => [runner.name, ready[i] ? 'ready' : 'down'])) };
        },
      },
    });
    await starting.ready();
    publicPort.open(starting);

    if (realm && config.DEMO_DATA && (await seedDemoData(realm, commands, logger)) > 0) {
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
      identityAdminClient,
      services,
      replicaSets: { command, query },
      logger,
      metricsUrl: served?.url ?? null,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
