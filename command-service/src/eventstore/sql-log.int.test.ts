import { START, type EventMetadata, type LogPosition } from '@forum/contracts';
import { createTestDatabase } from '@forum/infra/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from './postgres.ts';
import type { EventStore, LogRange } from './types.ts';

/**
 * The log in SQL (`EventStore.sql`): what a rebuild stages set-wise must be
 * what `readAll` hands the projections event by event, old versions upcast
 * the same way, and an event only `readAll` can read (a version newer than
 * this build) ends the ranges before it.
 */
const database = await createTestDatabase('sql_log');
const other = await createTestDatabase('sql_log_other');
let store: EventStore;
let client: pg.Client;
const meta = (schemaVersion: number): EventMetadata => ({ actorId: 'u-1', correlationId: 'c', causationId: null, requestId: null, schemaVersion });
const at = '2026-11-21T10:00:00.000Z';

beforeAll(async () => {
  store = await createPostgresEventStore({ connectionString: database.url, poolSize: 2 });
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await store.append([
    {
      streamId: 'user-1',
      expectedVersion: 'any',
      events: [
        { type: 'ProfileUpdated', data: { userId: 'u-1', name: 'Ann', photoURL: 'ann.png', updatedAt: at }, metadata: meta(1) },
        { type: 'ProfileUpdated', data: { userId: 'u-1', changes: { name: "O'Hara" }, updatedAt: at }, metadata: meta(2) },
        { type: 'Tick', data: { n: 1 }, metadata: meta(1) },
      ],
    },
  ]);
  await store.append([{ streamId: 'user-2', expectedVersion: 'any', events: [{ type: 'ProfileUpdated', data: { userId: 'u-2', photoURL: 'new' }, metadata: meta(99) }] }]);
  await store.append([{ streamId: 'user-3', expectedVersion: 'any', events: [{ type: 'ProfileUpdated', data: { userId: 'u-3', changes: { name: 'Cy' }, updatedAt: at }, metadata: meta(2) }] }]);
});
afterAll(async () => {
  await client?.end();
  await store?.close();
  await database.drop();
  await other.drop();
});

/**
 * Until readers see the whole log: they read only transactions older than the cluster's oldest
 * running one, and other test files' transactions run in the same cluster.
 */
async function settled() {
  const head = await store.head();
  for (let tries = 0; tries < 200; tries++) {
    if ((await store.readAll(START, 1000)).at(-1)?.position.globalPosition === head.globalPosition) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the log did not settle');
}

const query = (c: pg.Client) => async (sql: string) => (await c.query(sql)).rows;
const rowsOf = async (range: LogRange, types: readonly string[]) => {
  const { sql, bindings } = store.sql!.events(range, types);
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  return (await client.query<{ pos: string; type: string; stream_id: string; data: unknown }>(`SELECT pos::text, type, stream_id, data FROM ${text} e ORDER BY pos`, bindings)).rows;
};

describe('given a log with a v1 and a v2 ProfileUpdated, an event of another type, then one of a version newer than this build', () => {
  it('is shared with a session of its own database only', async () => {
    expect(await store.sql!.sharedWith(query(client))).toBe(true);
    const elsewhere = new pg.Client({ connectionString: other.url });
    await elsewhere.connect();
    try {
      expect(await store.sql!.sharedWith(query(elsewhere))).toBe(false);
    } finally {
      await elsewhere.end();
    }
  });

  it('ranges end before the event SQL cannot read, and none starts at it', async () => {
    await settled();
    const first = await store.sql!.nextRange(START, { limit: 100, types: ['ProfileUpdated'] });
    expect(first?.events).toBe(3);
    const [, , third, newer] = await store.readAll(START, 10);
    expect(first?.range.upTo).toEqual(third!.position);
    expect(await store.sql!.nextRange(first!.range.upTo, { limit: 100, types: ['ProfileUpdated'] })).toBeNull();
    // a reader of other types is not held up by it
    expect((await store.sql!.nextRange(first!.range.upTo, { limit: 100, types: ['Tick'] }))?.range.upTo).toEqual((await store.head()));
    // and the limit and `until` bound a range
    expect((await store.sql!.nextRange(START, { limit: 2, types: ['ProfileUpdated'] }))?.events).toBe(2);
    expect((await store.sql!.nextRange(START, { limit: 100, types: ['Tick'], until: third!.position }))?.range.upTo).toEqual(third!.position);
    expect(newer!.metadata.schemaVersion).toBe(99);
  });

  it('gives the events of a range in the shape readAll gives them: the v1 upcast by the SQL form of its upcaster', async () => {
    const next = await store.sql!.nextRange(START, { limit: 100, types: ['ProfileUpdated', 'Tick'] });
    const read = (await store.readAll(START, 10)).filter((e, i) => i < next!.events);
    const rows = await rowsOf(next!.range, ['ProfileUpdated', 'Tick']);
    expect(rows).toEqual(read.map((e) => ({ pos: e.position.globalPosition.toString(), type: e.type, stream_id: e.streamId, data: e.data })));
    expect(rows[0]!.data).toEqual({ userId: 'u-1', changes: { name: 'Ann', photoURL: 'ann.png' }, updatedAt: at });
    expect(await rowsOf(next!.range, ['Tick'])).toEqual([expect.objectContaining({ type: 'Tick', data: { n: 1 } })]);
  });

  it('stages the rest once past the unreadable event', async () => {
    const [, , , newer] = await store.readAll(START, 10);
    const after: LogPosition = newer!.position;
    const rest = await store.sql!.nextRange(after, { limit: 100, types: ['ProfileUpdated'] });
    expect(rest?.events).toBe(1);
    expect((await rowsOf(rest!.range, ['ProfileUpdated'])).map((r) => r.stream_id)).toEqual(['user-3']);
  });

  it('counts a range of more than nine events as a number, to its last event', async () => {
    const [, , , newer] = await store.readAll(START, 10);
    await store.append([{ streamId: 'ticks', expectedVersion: 'any', events: Array.from({ length: 11 }, (_, n) => ({ type: 'Tick', data: { n }, metadata: meta(1) })) }]);
    await settled();
    const rest = await store.sql!.nextRange(newer!.position, { limit: 100, types: ['Tick'] });
    expect(rest).toMatchObject({ events: 12, range: { upTo: await store.head() } });
    expect(await store.sql!.read(rest!.range, ['Tick'])).toEqual((await store.readAll(newer!.position, 100)).filter((e) => e.type === 'Tick'));
  });
});
