import { randomUUID } from 'node:crypto';
import { compareLogPositions, parsePositionToken, positionToken, START } from '@forum/contracts';
import { createPostgresEventStore } from '@forum/eventstore';
import { createLogger } from '@forum/platform';
import { containerEngineMissing, createTestDatabase, testEventMetadata, waitFor } from '@forum/platform/testing';
import { KafkaContainer, type StartedKafkaContainer } from '@testcontainers/kafka';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFeedCheckpoint } from '../checkpoint.ts';
import { FEED_HEADERS, type FeedEvent } from '../message.ts';
import type { FeedMessage } from '../port.ts';
import { startFeedRelay } from '../relay.ts';
import { followFeed } from './consumer-example.ts';
import { createKafkaPublisher } from './publisher.ts';

/**
 * The Kafka adapter against a real broker: KAFKA_BROKERS when set, else a Kafka container in KRaft
 * mode through testcontainers when a Docker engine answers, else skipped (saying which is missing).
 */

const IMAGE = 'confluentinc/cp-kafka:7.9.0';
const given = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
const missing = given.length > 0 ? null : await containerEngineMissing();
if (missing) console.warn(`feed/src/kafka/publisher.int.test.ts skipped: no Kafka broker (set KAFKA_BROKERS) and ${missing}`);

describe.skipIf(missing !== null)(`the Kafka feed publisher (${given.length > 0 ? 'KAFKA_BROKERS' : IMAGE})`, () => {
  let brokers: string[] = given;
  let container: StartedKafkaContainer | null = null;
  const logger = createLogger('feed-kafka-test', 'silent');

  beforeAll(async () => {
    if (brokers.length > 0) return;
    container = await new KafkaContainer(IMAGE).withKraft().start();
    brokers = [`${container.getHost()}:${container.getMappedPort(9093)}`];
  }, 240_000);
  afterAll(async () => {
    await container?.stop();
  });

  /** Follows `topic` from its start until `until` holds for what was handed on (at most 60 s). */
  async function consumed(topic: string, until: (events: FeedEvent[]) => boolean): Promise<FeedEvent[]> {
    const events: FeedEvent[] = [];
    const abort = new AbortController();
    const following = followFeed({ brokers, topic, groupId: `test-${randomUUID()}`, signal: abort.signal, handle: (event) => void events.push(event) });
    try {
      await waitFor(
        () => events.length,
        () => until(events),
        60_000,
        100,
      );
    } finally {
      abort.abort();
      await following;
    }
    return events;
  }

  const message = (streamId: string, tx: bigint, pos: bigint): FeedMessage => {
    const position = { transactionId: tx, globalPosition: pos };
    const value = {
      position: positionToken(position),
      streamId,
      streamVersion: Number(pos),
      type: 'PostVoted',
      schemaVersion: 1,
      recordedAt: new Date().toISOString(),
      metadata: testEventMetadata(),
      data: {},
      withheld: [],
    };
    return {
      key: streamId,
      value: JSON.stringify(value),
      headers: {
        [FEED_HEADERS.type]: 'PostVoted',
        [FEED_HEADERS.schemaVersion]: '1',
        [FEED_HEADERS.position]: positionToken(position),
        [FEED_HEADERS.correlationId]: 'c',
        [FEED_HEADERS.streamVersion]: String(pos),
      },
      position,
    };
  };

  it('creates the topic, keeps each stream in order, and a consumer drops what is published twice', async () => {
    const topic = `forum.test.${randomUUID()}`;
    const publisher = createKafkaPublisher({ brokers, topic, clientId: 'feed-test', partitions: 3 });
    try {
      const batch = Array.from({ length: 30 }, (_, i) => message(`post-${i % 4}`, 100n + BigInt(i), BigInt(i + 1)));
      await publisher.publish(batch.slice(0, 20));
      // the relay sends a batch again when its acknowledgement was lost
      await publisher.publish(batch.slice(10, 30));
      const events = await consumed(topic, (seen) => seen.length >= 30);
      expect(events).toHaveLength(30);
      expect(new Set(events.map((e) => e.position)).size).toBe(30);
      for (const stream of ['post-0', 'post-1', 'post-2', 'post-3']) {
        const order = events.filter((e) => e.streamId === stream).map((e) => parsePositionToken(e.position)!);
        expect(
          order.every((p, i) => i === 0 || compareLogPositions(order[i - 1]!, p) < 0),
          stream,
        ).toBe(true);
      }
    } finally {
      await publisher.close();
    }
  }, 120_000);

  it("carries the forum's log through the relay: every event, keyed by stream, with its headers", async () => {
    const database = await createTestDatabase('feed_kafka');
    const store = await createPostgresEventStore({ connectionString: database.url, pollIntervalMs: 200 });
    const db = new pg.Pool({ connectionString: database.url, max: 2 });
    const topic = `forum.test.${randomUUID()}`;
    const publisher = createKafkaPublisher({ brokers, topic, clientId: 'feed-test', partitions: 2 });
    const relay = await startFeedRelay({ store, databaseUrl: database.url, publisher, logger, maxInFlight: 5 });
    try {
      for (let i = 0; i < 12; i++) {
        await store.append([
          {
            streamId: `post-${i % 3}`,
            expectedVersion: 'any',
            events: [{ type: 'PostVoted', data: { i }, metadata: testEventMetadata({ correlationId: `corr-${i}` }) }],
          },
        ]);
      }
      const head = await store.head();
      await waitFor(
        async () => (await readFeedCheckpoint(db, 'kafka')).position,
        (at) => compareLogPositions(at, head) >= 0,
        60_000,
      );
      const events = await consumed(topic, (seen) => seen.length >= 12);
      const log = await store.readAll(START, 100);
      expect(events.map((e) => e.position).sort()).toEqual(log.map((e) => positionToken(e.position)).sort());
      for (const event of events) expect(event.metadata.correlationId).toMatch(/^corr-/);
    } finally {
      await relay.stop();
      await publisher.close();
      await store.close();
      await db.end();
      await database.drop();
    }
  }, 120_000);
});
