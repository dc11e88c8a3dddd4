import { compareLogPositions, START, type LogPosition } from '@forum/contracts';
import { createTestDatabase, FIXED_NOW as at, testEventMetadata } from '@forum/platform/testing';
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
const meta = (schemaVersion: number) => testEventMetadata({ actorId: 'u-1', schemaVersion });

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
  await store.append([
    { streamId: 'user-2', expectedVersion: 'any', events: [{ type: 'ProfileUpdated', data: { userId: 'u-2', photoURL: 'new' }, metadata: meta(99) }] },
  ]);
  await store.append([
    {
      streamId: 'user-3',
      expectedVersion: 'any',
      events: [{ type: 'ProfileUpdated', data: { userId: 'u-3', changes: { name: 'Cy' }, updatedAt: at }, metadata: meta(2) }],
    },
  ]);
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

const query = (c: pg.Client) => async (sql: string) => (await c.query<Record<string, unknown>>(sql)).rows;
const rowsOf = async (range: LogRange, types: readonly string[]) => {
  const { sql, bindings } = store.sql!.events(range, types);
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  return (
    await client.query<{ pos: string; type: string; stream_id: string; data: unknown }>(
      `SELECT pos::text, type, stream_id, data FROM ${text} e ORDER BY pos`,
      bindings,
    )
  ).rows;
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
    expect((await store.sql!.nextRange(first!.range.upTo, { limit: 100, types: ['Tick'] }))?.range.upTo).toEqual(await store.head());
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
    await store.append([
      { streamId: 'ticks', expectedVersion: 'any', events: Array.from({ length: 11 }, (_, n) => ({ type: 'Tick', data: { n }, metadata: meta(1) })) },
    ]);
    await settled();
    const rest = await store.sql!.nextRange(newer!.position, { limit: 100, types: ['Tick'] });
    expect(rest).toMatchObject({ events: 12, range: { upTo: await store.head() } });
    expect(await store.sql!.read(rest!.range, ['Tick'])).toEqual((await store.readAll(newer!.position, 100)).filter((e) => e.type === 'Tick'));
  });
});

describe('the log keeps a catalog of the schema versions it holds', () => {
  const catalog = async (c: pg.Client) =>
    (await c.query<{ type: string; version: string }>('SELECT type, version FROM eventstore.schema_versions ORDER BY type, version')).rows.map(
      (r) => `${r.type}@${r.version}`,
    );

  it('lists each type and version appended, and those of the events without a version', async () => {
    await client.query(`INSERT INTO eventstore.events (stream_id, stream_version, type, data, metadata) VALUES ('raw', 1, 'Tick', '{}', '{}')`);
    expect(await catalog(client)).toEqual(['ProfileUpdated@1', 'ProfileUpdated@2', 'ProfileUpdated@99', 'Tick@1', 'Tick@?']);
  });

  it('catalogues a log written before the catalog when the store first starts on it', async () => {
    const db = await createTestDatabase('sql_log_catalog');
    const c = new pg.Client({ connectionString: db.url });
    try {
      const first = await createPostgresEventStore({ connectionString: db.url, poolSize: 1 });
      await first.append([{ streamId: 's', expectedVersion: 'any', events: [{ type: 'Tick', data: {}, metadata: meta(1) }] }]);
      await c.connect();
      // as an event store of before the catalog left it
      await c.query('DROP TRIGGER events_schema_versions ON eventstore.events; DROP TABLE eventstore.schema_versions');
      await first.append([{ streamId: 's', expectedVersion: 'any', events: [{ type: 'ProfileUpdated', data: {}, metadata: meta(7) }] }]);
      await first.close();
      const again = await createPostgresEventStore({ connectionString: db.url, poolSize: 1 });
      await again.close();
      expect(await catalog(c)).toEqual(['ProfileUpdated@7', 'Tick@1']);
    } finally {
      await c.end().catch(() => {});
      await db.drop();
    }
  });
});

describe('given transactions that commit out of the order of their positions', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let log: EventStore;
  const writers: pg.Client[] = [];
  afterAll(async () => {
    for (const writer of writers) await writer.end();
    await log?.close();
    await db?.drop();
  });

  it('ends each range at its last event in log order, with or without reading the versions', async () => {
    db = await createTestDatabase('sql_log_order');
    log = await createPostgresEventStore({ connectionString: db.url, poolSize: 2 });
    for (let i = 0; i < 2; i++) {
      const writer = new pg.Client({ connectionString: db.url });
      await writer.connect();
      writers.push(writer);
    }
    const [early, late] = writers as [pg.Client, pg.Client];
    const insert = (c: pg.Client, stream: string, n: number) =>
      c.query(
        `INSERT INTO eventstore.events (stream_id, stream_version, type, data, metadata)
         SELECT $1, v, 'VoteCast', '{}', $2::jsonb FROM generate_series(1, $3::integer) v`,
        [stream, JSON.stringify(meta(1)), n],
      );
    // The first VoteCast catalogues its version (a writer of a pair not yet committed waits for it)
    await insert(early, 'first', 1);
    // Round after round, the transaction that began first (the lower id) takes the higher positions
    for (let round = 0; round < 5; round++) {
      await early.query('BEGIN');
      await early.query('SELECT pg_current_xact_id()');
      await late.query('BEGIN');
      await late.query('SELECT pg_current_xact_id()');
      await insert(late, `late-${round}`, 3 + round);
      await insert(early, `early-${round}`, 2);
      await late.query('COMMIT');
      await early.query('COMMIT');
    }
    const head = await log.head();
    for (let tries = 0; (await log.readAll(START, 1000)).length < 36 && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
    const all = await log.readAll(START, 1000);
    expect(all).toHaveLength(36);
    expect(all.at(-1)!.position.globalPosition).toBeLessThan(head.globalPosition);

    const ranges = async () => {
      const found = [];
      for (const limit of [1, 4, 7, 100]) {
        let after: LogPosition = START;
        for (
          let next = await log.sql!.nextRange(after, { limit, types: ['VoteCast'] });
          next;
          next = await log.sql!.nextRange(after, { limit, types: ['VoteCast'] })
        ) {
          const events = all.filter((e) => compareLogPositions(e.position, after) > 0).slice(0, limit);
          expect(next).toEqual({
            range: {
              after,
              upTo: events.at(-1)!.position,
              lowest: events.map((e) => e.position.globalPosition).reduce((a, b) => (a < b ? a : b)),
              highest: events.map((e) => e.position.globalPosition).reduce((a, b) => (a > b ? a : b)),
            },
            events: events.length,
          });
          found.push(next);
          after = next.range.upTo;
        }
        expect(after).toEqual(all.at(-1)!.position);
      }
      return found;
    };
    // every VoteCast here is v1: each range is read off the index
    const quick = await ranges();
    // a version SQL cannot read, catalogued as if some VoteCast held it: each event's version is read
    await early.query(`INSERT INTO eventstore.schema_versions (type, version) VALUES ('VoteCast', '98')`);
    expect(await ranges()).toEqual(quick);
    expect(quick.length).toBeGreaterThan(40);
  });
});
