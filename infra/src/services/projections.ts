/** The projection runner on its own (the distributed layout), against DATABASE_URL. */
import { createHttpServer, createKnex, createLogger, databaseCheck, healthPlugin, knexPoolUse, loadConfig } from '@forum/platform';
import { allProjections, buildLags, createProjectionRunner, ProjectionsConfig, projectionsCheck } from '@forum/projections';
import { openEventStore } from '../event-store.ts';
import { startMetrics } from '../metrics.ts';
import { startTracing } from '../tracing.ts';

const tracing = await startTracing('forum-projections');
const config = loadConfig(ProjectionsConfig);
const logger = createLogger('projections', config.LOG_LEVEL, { format: config.LOG_FORMAT });
const served = await startMetrics('projections', config, logger);
const metrics = served?.metrics;
const db = createKnex(config.DATABASE_URL, { logger });
const store = await openEventStore(
  { eventStoreUrl: config.EVENTSTORE_URL, databaseUrl: config.DATABASE_URL },
  { logger: logger.child({ component: 'eventstore' }), metrics },
);
metrics?.watchPool('main', knexPoolUse(db));
// the lag of every build, live and rebuilding, as `forumctl status` reads it (every runner shows it, the standbys too)
metrics?.watchBuilds(() => buildLags(db));
const runner = createProjectionRunner({ db, connectionString: config.DATABASE_URL, store, projections: allProjections, logger });
await runner.start();

const server = createHttpServer({ logger, ...(metrics && { metrics }) });
await server.register(
  healthPlugin(
    {
      database: () => databaseCheck(db),
      projections: async () => {
        const check = await projectionsCheck(db, config.READY_MAX_LAG, allProjections);
        const workers = runner.workers();
        return {
          ok: check.ok && workers.every((w) => w.state === 'running' || w.state === 'standby'),
          detail: { workers: workers.map(({ name, version, build, role, state }) => ({ name, version, build, role, state })), status: check.detail },
        };
      },
    },
    { metrics },
  ),
);
await server.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'projection runner health on port');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close();
    void runner.stop().then(async () => {
      await store.close();
      await db.destroy();
      await served?.close();
      await tracing?.stop();
      process.exit(0);
    });
  });
}
