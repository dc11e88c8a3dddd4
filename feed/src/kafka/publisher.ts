import { Admin, ProduceAcks, Producer, stringSerializers } from '@platformatic/kafka';
import type { FeedMessage, FeedPublisher } from '../port.ts';

export interface KafkaPublisherOptions {
  readonly brokers: readonly string[];
  readonly topic: string;
  readonly clientId: string;
  /** Partitions of the topic if it must be created (an existing topic keeps its own). */
  readonly partitions: number;
  /** Replicas of the topic if it must be created (default: as many as brokers, at most 3). */
  readonly replicas?: number;
}

/**
 * The feed's Kafka adapter (`@platformatic/kafka`). Each message goes to `topic` keyed by its
 * stream id: the client's default partitioner (murmur2 of the key, as the Java client's) puts a
 * stream on one partition, where Kafka keeps order. The producer is idempotent with `acks=all`:
 * `send` resolves once every in-sync replica has the batch, and the client's own retries neither
 * duplicate nor reorder messages within a partition. A failure rejects, and the relay sends the
 * whole batch again (then a duplicate is possible, which consumers drop by position).
 */
export function createKafkaPublisher(options: KafkaPublisherOptions): FeedPublisher {
  const bootstrapBrokers = [...options.brokers];
  // the topic is made sure of with the first publish, so a broker that is down delays the feed, not the start
  let topic: Promise<void> | null = null;
  const producer = new Producer({
    clientId: options.clientId,
    bootstrapBrokers,
    serializers: stringSerializers,
    idempotent: true,
    acks: ProduceAcks.ALL,
    autocreateTopics: false,
  });
  return {
    async publish(messages: readonly FeedMessage[]) {
      if (messages.length === 0) return;
      topic ??= ensureTopic({ ...options, brokers: bootstrapBrokers }).catch((error: unknown) => {
        topic = null;
        throw error;
      });
      await topic;
      await producer.send({
        messages: messages.map((message) => ({ topic: options.topic, key: message.key, value: message.value, headers: { ...message.headers } })),
      });
    },
    close: () => producer.close(),
  };
}

/** Creates the topic unless it exists (a topic made by the operator, with its own settings, is kept as it is). */
async function ensureTopic(options: KafkaPublisherOptions & { brokers: string[] }): Promise<void> {
  const admin = new Admin({ clientId: `${options.clientId}-admin`, bootstrapBrokers: options.brokers });
  try {
    if ((await admin.listTopics()).includes(options.topic)) return;
    try {
      await admin.createTopics({ topics: [options.topic], partitions: options.partitions, replicas: options.replicas ?? Math.min(3, options.brokers.length) });
    } catch (error) {
      // another relay may have created it in the meantime
      if (!(await admin.listTopics()).includes(options.topic)) throw error;
    }
  } finally {
    await admin.close();
  }
}
