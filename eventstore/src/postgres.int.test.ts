import { createTestDatabase, testEventMetadata, waitFor } from '@forum/platform/testing';
import { POST_HISTORY_TYPES, START } from '@forum/contracts';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { eventStoreContract } from './contract.suite.ts';
import { createPostgresEventStore } from './postgres.ts';
import { SCHEMA_LOCK } from './schema.ts';
import { WrongExpectedVersionError } from './types.ts';

const database = await createTestDatabase('es');

eventStoreContract('PostgreSQL', {
  supportsCommitHook: true,
  create: (options) => createPostgresEventStore({ connectionString: database.url, pollIntervalMs: 10_000, poolSize: 12, ...options }),
  dispose: () => database.drop(),
});

describe('PostgreSQL event store: a stream created while an append waits', () => {
  const racing = createTestDatabase('es_race');
  afterAll(async () => (await racing).drop());

  it('answers the conflict with the version the other writer committed, not the one its statement began with', async () => {
    const { url } = await racing;
    const store = await createPostgresEventStore({ connectionString: url, pollIntervalMs: 10_000 });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    try {
      const streamId = `c-${Date.now()}`;
      const event = { type: 'T', data: {}, metadata: testEventMetadata() };
      await store.append([{ streamId: 'warm-up', expectedVersion: 'no_stream', events: [event] }]);
      await other.query('BEGIN');
      await other.query('INSERT INTO eventstore.streams (stream_id, version) VALUES ($1, 2)', [streamId]);
      // the append's insert of the same stream waits for the other writer's transaction
      const append = store.append([{ streamId, expectedVersion: 'no_stream', events: [event] }]);
      append.catch(() => {});
      await waitFor(
        async () =>
          (
            await probe.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forum-eventstore' AND wait_event_type = 'Lock'`,
            )
          ).rows[0]!.n,
        (n) => n === 1,
      );
      await other.query('COMMIT');
      await expect(append).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(append).rejects.toMatchObject({ streamId, actual: 2 });
    } finally {
      await other.end();
      await probe.end();
      await store.close();
    }
  });
});

describe('PostgreSQL event store: deadlocks', () => {
  const deadlocks = createTestDatabase('es_deadlock');
  afterAll(async () => (await deadlocks).drop());

  it('tries again a transaction PostgreSQL ended to break a deadlock, which then answers as the log stands', { timeout: 30_000 }, async () => {
    const { url } = await deadlocks;
    // activity is read outside the other writer's transaction, which would see one snapshot of it
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    // PostgreSQL looks for a cycle once, deadlock_timeout after a backend starts to wait: the
    // store's sessions look late enough for the cycle to have formed however slow this machine
    // is, and the other writer never looks, so the store's transaction is always the one ended
    const { rows } = await probe.query<{ name: string }>('SELECT current_database() AS name');
    await probe.query(`ALTER DATABASE "${rows[0]!.name}" SET deadlock_timeout = '3s'`);
    const store = await createPostgresEventStore({ connectionString: url, pollIntervalMs: 10_000 });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    await other.query(`SET deadlock_timeout = '10min'`);
    try {
      const [created, existing] = [`a-${Date.now()}`, `b-${Date.now()}`];
      const event = { type: 'T', data: {}, metadata: testEventMetadata() };
      await store.append([{ streamId: existing, expectedVersion: 'no_stream', events: [event] }]);
      // another writer holds the existing stream's row and will insert the stream the append creates
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM eventstore.streams WHERE stream_id = $1 FOR UPDATE', [existing]);
      const append = store.append([
        { streamId: created, expectedVersion: 'no_stream', events: [event] },
        { streamId: existing, expectedVersion: 1, events: [event] },
      ]);
      append.catch(() => {});
      // the append has inserted its new stream and waits for the row
      await waitFor(
        async () =>
          (
            await probe.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forum-eventstore' AND wait_event_type = 'Lock'`,
            )
          ).rows[0]!.n,
        (n) => n === 1,
      );
      // the other writer now waits for the append's new stream: a cycle, which PostgreSQL ends by
      // rolling back the append (it waited first)
      await other.query('INSERT INTO eventstore.streams (stream_id, version) VALUES ($1, 1)', [created]);
      await other.query('COMMIT');
      // tried again, it finds the stream created by the other writer: a conflict, not a deadlock
      await expect(append).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(append).rejects.toMatchObject({ streamId: created, actual: 1 });
      expect((await store.readStream(existing)).version).toBe(1);
    } finally {
      await other.end();
      await probe.end();
      await store.close();
    }
  });
});

describe('PostgreSQL event store: histories of a log written before their indexes', () => {
  const before = createTestDatabase('es_history');
  afterAll(async () => (await before).drop());

  it('#28.3 the migration indexes an existing log by actor and by post, and its histories read off those indexes', { timeout: 60_000 }, async () => {
    const { url } = await before;
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    let store = await createPostgresEventStore({ connectionString: url, pollIntervalMs: 10_000 });
    try {
      const meta = (actorId: string) => testEventMetadata({ actorId });
      const postId = '7d0c8f6e-5b1a-4c3d-9e2f-0a1b2c3d4e5f';
      // many actors, one of them audited, and votes on many posts, one of them audited
      await store.append(
        Array.from({ length: 400 }, (_, i) => ({
          streamId: `vote-${i}`,
          expectedVersion: 'no_stream' as const,
          events: [
            {
              type: 'VoteCast',
              data: { postId: i % 100 === 0 ? postId : `post-${i}`, userId: `voter-${i}`, previous: 'none', vote: 'up', at: 'x' },
              metadata: meta(i % 50 === 0 ? 'audited' : `voter-${i}`),
            },
          ],
        })),
      );
      await store.close();
      // the log as a store before histories left it: no index on the actor or the post
      await probe.query(`DROP INDEX eventstore.events_by_actor`);
      const postIndex = (
        await probe.query<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'eventstore' AND indexname LIKE 'events_by_post_%'`)
      ).rows;
      expect(postIndex).toHaveLength(1);
      await probe.query(`DROP INDEX eventstore.${postIndex[0]!.name}`);

      store = await createPostgresEventStore({ connectionString: url, pollIntervalMs: 10_000 });
      const indexes = await probe.query<{ name: string; valid: boolean }>(
        `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         WHERE i.indrelid = 'eventstore.events'::regclass AND (c.relname = 'events_by_actor' OR c.relname LIKE 'events_by_post_%') ORDER BY 1`,
      );
      expect(indexes.rows).toEqual([
        { name: 'events_by_actor', valid: true },
        { name: postIndex[0]!.name, valid: true },
      ]);
      // a history shows the events once no older transaction is open anywhere on the server (another test's, say)
      const actorHistory = await waitFor(
        () => store.readHistory({ actorId: 'audited' }, { after: START, limit: 100 }),
        (events) => events.length >= 8,
      );
      // (one append writes its streams in the order of their ids)
      expect(actorHistory.map((e) => e.streamId)).toEqual(['vote-0', 'vote-100', 'vote-150', 'vote-200', 'vote-250', 'vote-300', 'vote-350', 'vote-50']);
      expect((await store.readHistory({ postId }, { after: START, limit: 100 })).map((e) => e.streamId)).toEqual([
        'vote-0',
        'vote-100',
        'vote-200',
        'vote-300',
      ]);

      // the planner takes them (an index scan of the 8 or 4 rows, not a scan of the table)
      await probe.query('ANALYZE eventstore.events');
      const plan = async (sql: string, value: string) =>
        (await probe.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [value])).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(
        await plan(`SELECT * FROM eventstore.events WHERE (metadata ->> 'actorId') = $1 ORDER BY transaction_id, global_position LIMIT 10`, 'audited'),
      ).toContain('events_by_actor');
      expect(
        await plan(
          `SELECT * FROM eventstore.events WHERE (data ->> 'postId') = $1 AND type IN (${POST_HISTORY_TYPES.map((type) => `'${type}'`).join(', ')}) ORDER BY transaction_id, global_position LIMIT 10`,
          postId,
        ),
      ).toContain(postIndex[0]!.name);
    } finally {
      await probe.end();
      await store.close();
    }
  });
});

describe('PostgreSQL event store: processes starting at once', () => {
  const fresh = createTestDatabase('es_starts');
  afterAll(async () => (await fresh).drop());

  it('migrate a log that lacks its history indexes side by side, without a deadlock', { timeout: 60_000 }, async () => {
    const { url } = await fresh;
    const store = await createPostgresEventStore({ connectionString: url, pollIntervalMs: 10_000 });
    await store.append([
      {
        streamId: 'vote-1',
        expectedVersion: 'no_stream',
        events: [{ type: 'VoteCast', data: { postId: 'p' }, metadata: testEventMetadata({ actorId: 'a' }) }],
      },
    ]);
    await store.close();
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    try {
      // a log with events: its indexes built CONCURRENTLY at the next start, while the other starters wait for the schema lock
      await probe.query(`DROP INDEX eventstore.events_by_actor`);
      const held = new pg.Client({ connectionString: url });
      await held.connect();
      await held.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK]);
      const heldPid = (await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const starting = Array.from({ length: 3 }, () => createPostgresEventStore({ connectionString: url, pollIntervalMs: 10_000 }));
      // every starter is waiting for the lock before it is let go
      await waitFor(
        async () =>
          (
            await probe.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE '%advisory_lock%' AND pid <> $1`,
              [heldPid],
            )
          ).rows[0]!.n,
        (n) => n >= 3,
      );
      await held.end();
      const stores = await Promise.all(starting);
      await Promise.all(stores.map((s) => s.close()));
      const { rows } = await probe.query<{ valid: boolean }>(
        `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'events_by_actor'`,
      );
      expect(rows).toEqual([{ valid: true }]);
    } finally {
      await probe.end();
    }
  });
});

describe('PostgreSQL event store: reads of the log', () => {
  const fresh = createTestDatabase('es_reads');
  afterAll(async () => (await fresh).drop());

  it('answer each limit (a statement per limit, written in) and take only a whole number of events', async () => {
    const { url } = await fresh;
    const store = await createPostgresEventStore({ connectionString: url, pollIntervalMs: 10_000, poolSize: 1 });
    try {
      for (let i = 1; i <= 3; i++)
        await store.append([
          {
            streamId: `vote-${i}`,
            expectedVersion: 'no_stream',
            events: [{ type: 'VoteCast', data: { postId: 'p' }, metadata: testEventMetadata({ actorId: 'a' }) }],
          },
        ]);
      await waitFor(
        () => store.readAll(START, 10),
        (events) => events.length === 3,
      );
      // past the five runs after which PostgreSQL may keep a generic plan, on the pool's one connection
      for (let i = 0; i < 8; i++) {
        expect((await store.readAll(START, 2)).map((e) => e.streamId)).toEqual(['vote-1', 'vote-2']);
        expect((await store.readAll(START, 1)).map((e) => e.streamId)).toEqual(['vote-1']);
      }
      await expect(store.readAll(START, 1.5)).rejects.toThrow(RangeError);
      await expect(store.readAll(START, -1)).rejects.toThrow(RangeError);
    } finally {
      await store.close();
    }
  });
});

describe('PostgreSQL event store: a command that stops inside its transaction', () => {
  const stopping = createTestDatabase('es_idle_tx');
  afterAll(async () => (await stopping).drop());

  it(
    'holds back the log’s readers no longer than idleInTransactionTimeoutMs: PostgreSQL ends its session, and its write is not made',
    { timeout: 30_000 },
    async () => {
      const { url } = await stopping;
      const store = await createPostgresEventStore({ connectionString: url, pollIntervalMs: 10_000, idleInTransactionTimeoutMs: 1_000 });
      let stopped: (() => void) | undefined;
      try {
        const event = { type: 'T', data: {}, metadata: testEventMetadata() };
        await store.append([{ streamId: 'before', expectedVersion: 'no_stream', events: [event] }]);
        // read once it is readable: the log is read below the oldest transaction open in the whole server (another file's too)
        const before = await waitFor(
          () => store.readAll(START, 10),
          (events) => events.length > 0,
          10_000,
          50,
        );
        const from = before.at(-1)!.position;
        // a command whose process stops (SIGSTOP, a hung event loop) after its transaction took its key: nothing more comes from it
        const hung = store.appendIdempotent([{ streamId: 'hung', expectedVersion: 'no_stream', events: [event] }], {
          key: 'hung-command',
          answer: () => 'done',
          beforeAppend: () => new Promise<void>((resolve) => (stopped = resolve)),
        });
        hung.catch(() => {});
        await waitFor(
          () => stopped,
          (ready) => ready !== undefined,
        );
        // another command's write, committed meanwhile, is held back behind the open transaction until its session ends
        await store.append([{ streamId: 'after', expectedVersion: 'no_stream', events: [event] }]);
        const startedAt = Date.now();
        const seen = await waitFor(
          () => store.readAll(from, 10),
          (events) => events.some((recorded) => recorded.streamId === 'after'),
          10_000,
          50,
        );
        expect(Date.now() - startedAt).toBeLessThan(5_000);
        expect(seen.map((recorded) => recorded.streamId)).toEqual(['after']);
        stopped!();
        await expect(hung).rejects.toThrow();
        expect(await store.idempotentAnswer('hung-command')).toBeNull();
        expect((await store.readStream('hung')).events).toEqual([]);
      } finally {
        stopped?.();
        await store.close();
      }
    },
  );
});
