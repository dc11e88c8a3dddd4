import { DatabaseUrl, eventStoreSettings, logSettings, metricsSettings, Port, ServiceHost } from '@forum/platform';
import { z } from 'zod';

/** `host:port` pairs, comma-separated; empty counts as unset. */
const brokers = z
  .string()
  .transform((list) =>
    list
      .split(',')
      .map((broker) => broker.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[^\s:/]+:\d{1,5}$/, 'must be host:port pairs, comma-separated (e.g. kafka-1:9092,kafka-2:9092)')).min(1, 'names no broker'));

/** The feed's settings, in the embedded forum and in the relay on its own: KAFKA_BROKERS turns the feed on. */
export const feedSettings = {
  /** The Kafka cluster's bootstrap brokers; unset: no feed. */
  KAFKA_BROKERS: brokers.optional(),
  KAFKA_TOPIC: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,249}$/, 'letters, digits, dot, underscore and hyphen, at most 249')
    .default('forum.events'),
  /** Partitions of the topic when the relay creates it (an existing topic keeps its own). */
  KAFKA_TOPIC_PARTITIONS: z.coerce.number().int().min(1).max(10_000).default(6),
  KAFKA_CLIENT_ID: z.string().min(1).default('forum-relay'),
  /** Events sent and not yet acknowledged, at most. */
  FEED_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(500),
};

export const FeedSettings = z.object(feedSettings);
export type FeedSettings = z.infer<typeof FeedSettings>;

/** The relay on its own (`npm run start:relay`): its health port, the forum's database and the broker. */
export const RelayConfig = z.object({
  PORT: Port.default(3004),
  HOST: ServiceHost,
  DATABASE_URL: DatabaseUrl,
  ...eventStoreSettings,
  ...logSettings,
  ...metricsSettings,
  ...feedSettings,
  KAFKA_BROKERS: feedSettings.KAFKA_BROKERS.unwrap(),
});
export type RelayConfig = z.infer<typeof RelayConfig>;
