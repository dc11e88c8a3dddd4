import type { EventStore } from '@forum/eventstore';
import type { Logger } from '@forum/platform';
import type { FeedSettings } from './config.ts';
import { createKafkaPublisher } from './kafka/publisher.ts';
import { feedReadiness, startFeedRelay } from './relay.ts';

export interface RunningFeed {
  /** The relay's readiness check, for `/readyz`. */
  readonly check: ReturnType<typeof feedReadiness>;
  stop(): Promise<void>;
}

/**
 * The Kafka feed as the composition starts it (the embedded forum and `npm run start:relay`): the
 * relay (with its one session for the feed's lock and checkpoint) and its Kafka publisher. Null
 * when KAFKA_BROKERS is not set. Several may run on one database: one publishes, the others stand by.
 */
export async function startKafkaFeed(options: { settings: FeedSettings; store: EventStore; databaseUrl: string; logger: Logger }): Promise<RunningFeed | null> {
  const { settings } = options;
  if (!settings.KAFKA_BROKERS) return null;
  const publisher = createKafkaPublisher({
    brokers: settings.KAFKA_BROKERS,
    topic: settings.KAFKA_TOPIC,
    clientId: settings.KAFKA_CLIENT_ID,
    partitions: settings.KAFKA_TOPIC_PARTITIONS,
  });
  try {
    const relay = await startFeedRelay({
      store: options.store,
      databaseUrl: options.databaseUrl,
      publisher,
      maxInFlight: settings.FEED_MAX_IN_FLIGHT,
      logger: options.logger,
    });
    return {
      check: feedReadiness(relay),
      async stop() {
        await relay.stop();
        await publisher.close();
      },
    };
  } catch (error) {
    await publisher.close();
    throw error;
  }
}
