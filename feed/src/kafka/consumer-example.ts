/**
 * A consumer of the forum's feed, as an example: it reads the topic from its group's committed
 * offsets (the earliest, the first time), hands each event on once and drops the duplicates the
 * relay's at-least-once delivery brings, by position (SeenPositions), and commits each message
 * after handling it. Run it: `KAFKA_BROKERS=localhost:9092 npx tsx feed/src/kafka/consumer-example.ts`
 * prints the feed as it comes. A real consumer keeps its positions with its own effects, in one
 * transaction, so that a restart of the consumer does not take a duplicate for news (docs/kafka.md).
 */
import { pathToFileURL } from 'node:url';
import { Consumer, MessagesStreamFallbackModes, MessagesStreamModes, stringDeserializers, type Message } from '@platformatic/kafka';
import { loadConfig } from '@forum/platform';
import { z } from 'zod';
import { feedSettings } from '../config.ts';
import { SeenPositions } from '../dedupe.ts';
import type { FeedEvent } from '../message.ts';

export interface FollowFeedOptions {
  readonly brokers: readonly string[];
  readonly topic: string;
  /** The consumer group: its committed offsets say where a restart begins. */
  readonly groupId: string;
  readonly handle: (event: FeedEvent, message: Message<string, string, string, string>) => Promise<void> | void;
  /** Ends the following (after the message in hand). */
  readonly signal: AbortSignal;
}

/** Follows the feed until `signal` aborts, handing each event to `handle` once (duplicates dropped by position). */
export async function followFeed(options: FollowFeedOptions): Promise<void> {
  const consumer = new Consumer({
    clientId: `${options.groupId}-consumer`,
    groupId: options.groupId,
    bootstrapBrokers: [...options.brokers],
    deserializers: stringDeserializers,
    autocommit: false,
    maxWaitTime: 500,
  });
  const seen = new SeenPositions();
  try {
    const stream = await consumer.consume({ topics: [options.topic], mode: MessagesStreamModes.COMMITTED, fallbackMode: MessagesStreamFallbackModes.EARLIEST });
    const stop = () => void stream.close();
    if (options.signal.aborted) stop();
    options.signal.addEventListener('abort', stop, { once: true });
    for await (const message of stream as AsyncIterable<Message<string, string, string, string>>) {
      if (seen.firstTime(String(message.partition), message.headers)) await options.handle(JSON.parse(message.value) as FeedEvent, message);
      await message.commit();
    }
  } finally {
    // the forced close's callback: its overloads type the promise only for a close that is not forced
    await new Promise<void>((resolve, reject) => consumer.close(true, (error) => (error ? reject(error) : resolve())));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const config = loadConfig(
    z.object({
      KAFKA_BROKERS: feedSettings.KAFKA_BROKERS.unwrap(),
      KAFKA_TOPIC: feedSettings.KAFKA_TOPIC,
      GROUP_ID: z.string().min(1).default('forum-feed-example'),
    }),
  );
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  await followFeed({
    brokers: config.KAFKA_BROKERS,
    topic: config.KAFKA_TOPIC,
    groupId: config.GROUP_ID,
    signal: abort.signal,
    handle: (event, message) => console.log(`${event.position} partition ${message.partition} ${event.type} ${event.streamId} v${event.streamVersion}`),
  });
}
