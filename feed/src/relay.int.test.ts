import { compareLogPositions, positionToken, START, type LogPosition } from '@forum/contracts';
import { createPostgresEventStore, type EventStore } from '@forum/eventstore';
import { createLogger } from '@forum/platform';
import { createTestDatabase, testEventMetadata, waitFor } from '@forum/platform/testing';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { readFeedCheckpoint } from './checkpoint.ts';
import { FEED_HEADERS, type FeedEvent } from './message.ts';
import { startFeedRelay, type FeedRelay, type FeedRelayOptions } from './relay.ts';
import { MemoryFeedPublisher } from './testing/memory-publisher.ts';

/**
 * The relay's loop against its port: a real PostgreSQL event store and a real checkpoint row, the
 * broker stood in for by MemoryFeedPublisher. Waits are on conditions, bounded at 20 s.
 */

const logger = createLogger('feed-test', 'silent');
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function forumLog(): Promise<{ store: EventStore; db: pg.Pool }> {
  const database = await createTestDatabase('feed');
  cleanup.push(() => database.drop());
  const store = await createPostgresEventStore({ connectionString: database.url, pollIntervalMs: 200 });
  cleanup.push(() => store.close());
  const db = new pg.Pool({ connectionString: database.url, max: 3 });
  cleanup.push(() => db.end());
  return { store, db };
}

async function relay(options: Omit<FeedRelayOptions, 'logger'> & { publisher: MemoryFeedPublisher }): Promise<FeedRelay> {
  const started = await startFeedRelay({ retry: { firstMs: 10, maxMs: 50 }, logger, ...options });
  // a held acknowledgement would hold the stop too
  cleanup.push(() => {
    options.publisher.release();
    return started.stop();
  });
  return started;
}

/** Appends `count` events, one command each, round-robin over `streams` streams. */
async function append(store: EventStore, count: number, streams = 3, prefix = 'post-s'): Promise<void> {
  for (let i = 0; i < count; i++) {
    await store.append([
      {
        streamId: `${prefix}${i % streams}`,
        expectedVersion: 'any',
        events: [{ type: 'PostVoted', data: { n: i }, metadata: testEventMetadata({ correlationId: `corr-${i}` }) }],
      },
    ]);
  }
}

const everything = async (store: EventStore) => (await store.readAll(START, 100_000)).map((e) => positionToken(e.position));
const checkpointOf = async (db: pg.Pool, name = 'kafka') => (await readFeedCheckpoint(db, name)).position;
const reached = (want: LogPosition) => (at: LogPosition) => compareLogPositions(at, want) >= 0;
const positions = (publisher: MemoryFeedPublisher) => publisher.delivered.map((m) => m.headers[FEED_HEADERS.position]!);
/** The first delivery of each position, in delivery order: what a consumer that drops duplicates by position handles. */
const firstDeliveries = (tokens: readonly string[]) => [...new Set(tokens)];

describe('the feed relay', () => {
  it('publishes every event once, in log order, keyed by its stream, with type, schema version, position and correlation id in headers', async () => {
    const { store, db } = await forumLog();
    await append(store, 7);
    const publisher = new MemoryFeedPublisher();
    await relay({ store, db, publisher });
    await append(store, 5);
    const head = await store.head();
    await waitFor(() => checkpointOf(db), reached(head), 20_000);

    expect(positions(publisher)).toEqual(await everything(store));
    const events = await store.readAll(START, 1000);
    publisher.delivered.forEach((message, i) => {
      const event = events[i]!;
      expect(message.key).toBe(event.streamId);
      expect(message.headers).toEqual({
        [FEED_HEADERS.type]: 'PostVoted',
        [FEED_HEADERS.schemaVersion]: '1',
        [FEED_HEADERS.position]: positionToken(event.position),
        [FEED_HEADERS.correlationId]: event.metadata.correlationId,
        [FEED_HEADERS.streamVersion]: String(event.streamVersion),
      });
      expect(JSON.parse(message.value)).toMatchObject({
        streamId: event.streamId,
        type: 'PostVoted',
        data: event.data,
        withheld: [],
      } satisfies Partial<FeedEvent>);
    });
    expect((await readFeedCheckpoint(db, 'kafka')).published).toBe(12n);
  });

  it('moves its checkpoint only after the broker acknowledged', async () => {
    const { store, db } = await forumLog();
    const publisher = new MemoryFeedPublisher();
    publisher.hold();
    const feed = await relay({ store, db, publisher });
    await append(store, 4);
    await waitFor(
      () => publisher.waiting,
      (n) => n === 1,
      20_000,
    );
    // the batch is with the broker, unacknowledged: the checkpoint has not moved
    expect(await checkpointOf(db)).toEqual(START);
    expect(feed.status().checkpoint).toEqual(START);
    publisher.release();
    await waitFor(() => checkpointOf(db), reached(await store.head()), 20_000);
    expect(positions(publisher)).toEqual(await everything(store));
  });

  it('sends a failed batch again until the broker takes it, and skips nothing', async () => {
    const { store, db } = await forumLog();
    const publisher = new MemoryFeedPublisher();
    // refused twice, then delivered with its acknowledgement lost, then delivered
    publisher.failNext('refuse', 'refuse', 'lose-ack');
    const feed = await relay({ store, db, publisher, maxInFlight: 4 });
    await append(store, 10);
    await waitFor(() => checkpointOf(db), reached(await store.head()), 20_000);

    const log = await everything(store);
    expect(firstDeliveries(positions(publisher))).toEqual(log);
    // the batch whose acknowledgement was lost came twice (at most maxInFlight events), nothing else did
    const duplicates = positions(publisher).length - log.length;
    expect(duplicates).toBeGreaterThan(0);
    expect(duplicates).toBeLessThanOrEqual(4);
    expect(feed.status().failing).toBeNull();
  });

  it('resumes from its checkpoint after a restart: a batch in flight comes again, none is lost', async () => {
    const { store, db } = await forumLog();
    const first = new MemoryFeedPublisher();
    const one = await startFeedRelay({ store, db, publisher: first, logger, retry: { firstMs: 10, maxMs: 50 } });
    await append(store, 6);
    await waitFor(() => checkpointOf(db), reached(await store.head()), 20_000);
    const checkpoint = await checkpointOf(db);

    // the next batch reaches the broker, and the relay stops before it hears back
    first.hold();
    first.failNext('lose-ack');
    await append(store, 3, 2, 'post-t');
    await waitFor(
      () => first.waiting,
      (n) => n === 1,
      20_000,
    );
    const stopping = one.stop();
    first.release();
    await stopping;
    expect(await checkpointOf(db)).toEqual(checkpoint);

    await append(store, 4, 2, 'post-u');
    const second = new MemoryFeedPublisher();
    await relay({ store, db, publisher: second });
    await waitFor(() => checkpointOf(db), reached(await store.head()), 20_000);

    const log = await everything(store);
    const after = log.slice(log.indexOf(positionToken(checkpoint)) + 1);
    // the restarted relay begins right after the checkpoint: the unacknowledged batch again, then the rest
    expect(positions(second)).toEqual(after);
    expect(firstDeliveries([...positions(first), ...positions(second)])).toEqual(log);
  });

  it('never has more than maxInFlight events unacknowledged, however far the log runs ahead', async () => {
    const { store, db } = await forumLog();
    await append(store, 60, 7);
    const publisher = new MemoryFeedPublisher();
    publisher.hold();
    await relay({ store, db, publisher, maxInFlight: 8 });
    const head = await store.head();
    let batches = 0;
    while (compareLogPositions(await checkpointOf(db), head) < 0) {
      await waitFor(
        async () => [publisher.waiting, await checkpointOf(db)] as const,
        ([waiting, at]) => waiting > 0 || reached(head)(at),
        20_000,
      );
      if (publisher.waiting === 0) break;
      // while the broker holds a batch the relay reads nothing further
      expect(publisher.inFlight).toBeLessThanOrEqual(8);
      expect(publisher.waiting).toBe(1);
      batches++;
      publisher.release();
      publisher.hold();
    }
    expect(publisher.maxInFlight).toBeLessThanOrEqual(8);
    expect(batches).toBeGreaterThanOrEqual(60 / 8);
    expect(positions(publisher)).toEqual(await everything(store));
  });

  it("publishes no personal data: members' fields and a Contact message's are left out, sealed or not", async () => {
    const { store, db } = await forumLog();
    const userId = '6f1b7c1e-5a43-4d7e-9d55-0d1c7f0e9a11';
    const meta = testEventMetadata({ actorId: userId });
    await store.append([
      {
        streamId: `user-${userId}`,
        expectedVersion: 'no_stream',
        events: [
          {
            type: 'UserRegistered',
            data: {
              userId,
              email: 'ann.private@example.com',
              name: 'Ann Private',
              photoURL: 'https://img.example.com/ann.png',
              registeredAt: '2026-01-01T00:00:00.000Z',
            },
            metadata: meta,
          },
        ],
      },
    ]);
    await store.append([
      {
        streamId: 'post-p1',
        expectedVersion: 'no_stream',
        events: [
          {
            type: 'PostCreated',
            data: {
              postId: 'p1',
              authorId: userId,
              authorName: 'Ann Private',
              authorEmail: 'ann.private@example.com',
              authorPhoto: '',
              title: 'My secret title',
              description: 'My secret text',
              tags: ['General'],
              createdAt: '2026-01-01T00:00:00.000Z',
            },
            metadata: meta,
          },
        ],
      },
    ]);
    const messageId = '0b9a2f9e-7c1d-4c55-8f3e-2a6d1e4b5c77';
    await store.append([
      {
        streamId: `contact-${messageId}`,
        expectedVersion: 'no_stream',
        events: [
          {
            type: 'ContactMessageReceived',
            data: { messageId, name: 'Vic Visitor', email: 'vic@example.org', message: 'Call me on 0123', receivedAt: '2026-01-01T00:00:00.000Z' },
            metadata: testEventMetadata(),
          },
        ],
      },
    ]);
    const publisher = new MemoryFeedPublisher();
    await relay({ store, db, publisher });
    await waitFor(() => checkpointOf(db), reached(await store.head()), 20_000);

    const text = publisher.delivered.map((m) => m.value).join('\n');
    for (const secret of ['ann.private', 'Ann Private', 'img.example.com', 'My secret', 'Vic Visitor', 'vic@example.org', 'Call me', '$sealed'])
      expect(text).not.toContain(secret);
    const [registered, created, contact] = publisher.delivered.map((m) => JSON.parse(m.value) as FeedEvent);
    expect(registered).toMatchObject({
      type: 'UserRegistered',
      data: { userId, registeredAt: '2026-01-01T00:00:00.000Z' },
      withheld: ['name', 'email', 'photoURL'],
    });
    expect(created).toMatchObject({
      type: 'PostCreated',
      data: { postId: 'p1', authorId: userId, tags: ['General'] },
      withheld: ['authorName', 'authorEmail', 'authorPhoto', 'title', 'description'],
    });
    expect(contact).toMatchObject({
      type: 'ContactMessageReceived',
      data: { messageId, receivedAt: '2026-01-01T00:00:00.000Z' },
      withheld: ['name', 'email', 'message'],
    });
  });
});
