import { randomBytes } from 'node:crypto';
import { createPostgresEventStore, type EventStore } from '@forum/eventstore';
import { openData, sealData } from '@forum/eventstore/sealed-box';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, isoNow, testEventMetadata, uuidOf } from '@forum/platform/testing';
import { readCommittedLog } from '../testing/log.ts';
import { loadSyntheticLog, syntheticLog, type LoadResult } from './synthetic-log.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let client: pg.Client;
let loaded: LoadResult;
let store: EventStore;

beforeAll(async () => {
  database = await createTestDatabase('synthetic_log');
  loaded = await loadSyntheticLog(database.url, { events: 5_000, seed: 3, statementRows: 300, transactionRows: 1_000 });
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  store = await createPostgresEventStore({ connectionString: database.url, poolSize: 2 });
});
afterAll(async () => {
  await store?.close();
  await client?.end();
  await database?.drop();
});

describe('given an empty event store, when the synthetic log is loaded', () => {
  it('then it holds every event of the log, with positions, versions, data (sealed, and erased where its member was) and metadata as generated', async () => {
    const expected = [...syntheticLog({ events: 5_000, seed: 3 })];
    expect(loaded.events).toBe(expected.length);
    expect(Object.values(loaded.byType).reduce((a, b) => a + b, 0)).toBe(expected.length);
    // what an event's data reads as: as generated, its erased members' fields as erased (sealed here with a key of the test's)
    const erasures = new Map(expected.filter((e) => e.type === 'AccountErased').map((e) => [e.data.userId as string, e.data.content as string]));
    const key = randomBytes(64);
    const readAs = (event: (typeof expected)[number]) =>
      openData(
        sealData(event.type, event.metadata.schemaVersion, event.data, () => key),
        (subject, kind) => (erasures.has(subject) && (kind === 'identity' || erasures.get(subject) === 'erased') ? undefined : key),
      );
    const { rows } = await client.query(
      `SELECT global_position::int AS p, stream_id, stream_version, type, eventstore.unseal(data) AS data, metadata, recorded_at FROM eventstore.events ORDER BY global_position`,
    );
    expect(rows.length).toBe(expected.length);
    expect(erasures.size).toBeGreaterThan(0);
    rows.forEach((row, i) => {
      const event = expected[i]!;
      expect(row).toEqual({
        p: i + 1,
        stream_id: event.streamId,
        stream_version: event.streamVersion,
        type: event.type,
        data: readAs(event),
        metadata: event.metadata,
        recorded_at: new Date(event.recordedAt),
      });
    });
  });

  it('then it was written in several transactions, and the log order (transaction, position) is the position order', async () => {
    const { rows } = await client.query<{ transactions: number }>('SELECT count(DISTINCT transaction_id)::int AS transactions FROM eventstore.events');
    expect(rows[0]!.transactions).toBe(5);
    const read = await readCommittedLog(store, loaded.events);
    expect(read.map((e) => Number(e.position.globalPosition))).toEqual(Array.from({ length: loaded.events }, (_, i) => i + 1));
  });

  it('then each stream’s version is its last event’s, so commands append after it, at the next position', async () => {
    const { rows } = await client.query<{ mismatched: number; streams: number }>(
      `SELECT count(*) FILTER (WHERE s.version IS DISTINCT FROM e.last)::int AS mismatched, count(*)::int AS streams
       FROM (SELECT stream_id, max(stream_version) AS last FROM eventstore.events GROUP BY stream_id) e
       LEFT JOIN eventstore.streams s USING (stream_id)`,
    );
    expect(rows[0]).toEqual({ mismatched: 0, streams: loaded.streams });
    const tags = await store.readStream('tags');
    const appended = await store.append([
      {
        streamId: 'tags',
        expectedVersion: tags.version,
        events: [
          {
            type: 'TagCreated',
            data: { tagId: uuidOf(1), name: 'Loaded', createdAt: isoNow() },
            metadata: testEventMetadata(),
          },
        ],
      },
    ]);
    expect(appended.versions.tags).toBe(tags.version + 1);
    expect(appended.lastPosition.globalPosition).toBe(BigInt(loaded.events + 1));
  });

  it('then a second load is refused: it only loads into an empty store', async () => {
    await expect(loadSyntheticLog(database.url, { events: 100 })).rejects.toThrow(/not empty/);
  });
});
