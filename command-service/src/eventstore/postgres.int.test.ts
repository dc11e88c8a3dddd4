import { createTestDatabase, waitFor } from '@forum/infra/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { eventStoreContract } from './contract.suite.ts';
import { createPostgresEventStore } from './postgres.ts';
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
      const event = { type: 'T', data: {}, metadata: { actorId: 'test', correlationId: 'c', causationId: null, requestId: null, schemaVersion: 1 } };
      await store.append([{ streamId: 'warm-up', expectedVersion: 'no_stream', events: [event] }]);
      await other.query('BEGIN');
      await other.query('INSERT INTO eventstore.streams (stream_id, version) VALUES ($1, 2)', [streamId]);
      // the append's insert of the same stream waits for the other writer's transaction
      const append = store.append([{ streamId, expectedVersion: 'no_stream', events: [event] }]);
      append.catch(() => {});
      await waitFor(
        async () => (await probe.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forum-eventstore' AND wait_event_type = 'Lock'`)).rows[0].n,
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
      const event = { type: 'T', data: {}, metadata: { actorId: 'test', correlationId: 'c', causationId: null, requestId: null, schemaVersion: 1 } };
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
        async () => (await probe.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forum-eventstore' AND wait_event_type = 'Lock'`)).rows[0].n,
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
