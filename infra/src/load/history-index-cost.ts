/**
 * What the history indexes cost (docs/operations/history.md), measured on one machine with the same
 * code both ways: `npx tsx infra/src/load/history-index-cost.ts`.
 *
 * 1. Appends: WRITERS (default 16) concurrent writers append one vote each (a new stream, as
 *    PUT /api/posts/:id/vote does) to a store with the actor and post indexes and to one without
 *    them, in ROUNDS (default 4) rounds of APPENDS (default 2,000) that alternate between the two so
 *    that both see the same machine; durable PostgreSQL (fsync on). Prints appends/s of each.
 * 2. The migration on a log written before the indexes: HISTORY_EVENTS (default 100,000) synthetic
 *    events loaded, the indexes dropped, then the store's migration timed as it builds them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { voteStream } from '@forum/contracts';
import { createPostgresEventStore, migrateEventStore, type EventStore } from '@forum/eventstore';
import pg from 'pg';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import { loadSyntheticLog } from './synthetic-log.ts';

const WRITERS = Number(process.env.WRITERS ?? 16);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const APPENDS = Number(process.env.APPENDS ?? 2000);
const EVENTS = Number(process.env.HISTORY_EVENTS ?? 100_000);
const say = (line: string) => process.stdout.write(`${line}\n`);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-history-cost-'));
const postgres = await startEmbeddedPostgres({ dataDir, database: 'postgres' });
const admin = new pg.Client({ connectionString: postgres.urlFor('postgres') });
await admin.connect();

const HISTORY_INDEXES = `SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'eventstore' AND (indexname = 'events_by_actor' OR indexname LIKE 'events_by_post_%')`;

/** Drops the history indexes of the database at `url`: the log as a build before them kept it. */
async function dropHistoryIndexes(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const { name } of (await client.query<{ name: string }>(HISTORY_INDEXES)).rows) await client.query(`DROP INDEX eventstore.${name}`);
  await client.end();
}

/** A store on a fresh database, with the history indexes or without them. */
async function store(name: string, indexed: boolean): Promise<EventStore> {
  await admin.query(`CREATE DATABASE ${name}`);
  const url = postgres.urlFor(name);
  const created = await createPostgresEventStore({ connectionString: url, poolSize: WRITERS });
  if (!indexed) await dropHistoryIndexes(url);
  return created;
}

/** `count` votes from WRITERS concurrent writers; answers appends a second. */
async function votes(target: EventStore, count: number): Promise<number> {
  let left = count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (left-- > 0) {
        const [postId, userId] = [randomUUID(), `voter-${Math.floor(Math.random() * 1000)}`];
        const metadata = { actorId: userId, correlationId: randomUUID(), causationId: null, requestId: randomUUID(), schemaVersion: 1 };
        await target.append([
          {
            streamId: voteStream(postId, userId),
            expectedVersion: 'no_stream',
            events: [{ type: 'VoteCast', data: { postId, userId, previous: 'none', vote: 'up', at: new Date().toISOString() }, metadata }],
          },
        ]);
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

try {
  const [withIndexes, without] = [await store('appends_indexed', true), await store('appends_plain', false)];
  const rates = { indexed: [] as number[], plain: [] as number[] };
  await votes(withIndexes, APPENDS / 4); // warm-up
  await votes(without, APPENDS / 4);
  for (let round = 0; round < ROUNDS; round++) {
    rates.indexed.push(await votes(withIndexes, APPENDS));
    rates.plain.push(await votes(without, APPENDS));
  }
  await Promise.all([withIndexes.close(), without.close()]);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const line = (label: string, values: number[]) =>
    `${label}: median ${median(values).toFixed(0)} appends/s (rounds: ${values.map((v) => v.toFixed(0)).join(', ')})`;
  say(`appends, ${WRITERS} concurrent writers, ${ROUNDS} rounds of ${APPENDS} votes, fsync on`);
  say(line('  with the history indexes   ', rates.indexed));
  say(line('  without them               ', rates.plain));

  await admin.query('CREATE DATABASE migration');
  const url = postgres.urlFor('migration');
  const loaded = await loadSyntheticLog(url, { events: EVENTS, seed: 28 });
  await dropHistoryIndexes(url);
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const started = performance.now();
  await migrateEventStore(pool);
  const seconds = (performance.now() - started) / 1000;
  const { rows } = await pool.query<{ name: string; size: string }>(
    `SELECT indexname AS name, pg_size_pretty(pg_relation_size(('eventstore.' || indexname)::regclass)) AS size FROM pg_indexes WHERE schemaname = 'eventstore' AND (indexname = 'events_by_actor' OR indexname LIKE 'events_by_post_%')`,
  );
  const table = await pool.query<{ size: string }>(`SELECT pg_size_pretty(pg_relation_size('eventstore.events')) AS size`);
  await pool.end();
  say(
    `migration of a log of ${loaded.events.toLocaleString('en')} events written before the indexes: built in ${seconds.toFixed(1)} s; ${rows.map((r) => `${r.name} ${r.size}`).join(', ')} (the events table: ${table.rows[0]!.size})`,
  );
} finally {
  await admin.end();
  await postgres.stop();
  await rm(dataDir, { recursive: true, force: true });
}
