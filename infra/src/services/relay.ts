/** The Kafka feed's relay on its own (the distributed layout): follows the log (EVENTSTORE_URL, else DATABASE_URL) and publishes it to KAFKA_BROKERS. */
import { RelayConfig, startKafkaFeed } from '@forum/feed';
import { createHttpServer, createKnex, createLogger, databaseCheck, healthPlugin, knexPoolUse, loadConfig } from '@forum/platform';
import { openEventStore } from '../event-store.ts';
import { startMetrics } from '../metrics.ts';
import { startTracing } from '../tracing.ts';

const tracing = await startTracing('forum-relay');
const config = loadConfig(RelayConfig);
const logger = createLogger('relay', config.LOG_LEVEL, { format: config.LOG_FORMAT });
const served = await startMetrics('relay', config, logger);
const metrics = served?.metrics;
const db = createKnex(config.DATABASE_URL, { max: 2, logger });
metrics?.watchPool('main', knexPoolUse(db));
const store = await openEventStore(
  { eventStoreUrl: config.EVENTSTORE_URL, databaseUrl: config.DATABASE_URL },
  { poolSize: 3, logger: logger.child({ component: 'eventstore' }), metrics },
);
const feed = (await startKafkaFeed({ settings: config, store, databaseUrl: config.DATABASE_URL, logger }))!;

const server = createHttpServer({ logger, ...(metrics && { metrics }) });
await server.register(healthPlugin({ database: () => databaseCheck(db), feed: feed.check }, { metrics }));
await server.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT, brokers: config.KAFKA_BROKERS, topic: config.KAFKA_TOPIC }, 'feed relay health on port');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close();
    void feed.stop().then(async () => {
      await store.close();
      await db.destroy();
      await tracing?.stop();
      process.exit(0);
    });
  });
}
