import { START } from '@forum/contracts';
import { createPostgresEventStore, type RecordedEvent } from '@forum/command-service/eventstore';
import { allProjections, replayApply, settleReplay, type Projection } from '@forum/projections';
import { createKnex, type Knex } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/database.ts';
import { loadSyntheticLog } from './synthetic-log.ts';

/**
 * The projections fold a batch in memory and write it in a few set-based
 * statements. Whatever the batch size, the read model must be the one that
 * applying the events one at a time gives: a realistic log (registrations then
 * profile changes, posts then votes and deletions, comments then reports and
 * removals, often in one batch) replayed at batch size 1, a few odd sizes and
 * all at once gives identical tables.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
let log: RecordedEvent[];

beforeAll(async () => {
  database = await createTestDatabase('replay_equivalence');
  await loadSyntheticLog(database.url, { events: 2_500, seed: 11 });
  const store = await createPostgresEventStore({ connectionString: database.url, poolSize: 1 });
  log = [];
  for (let after = START; ; ) {
    const batch = await store.readAll(after, 1000);
    if (batch.length === 0) break;
    log.push(...batch);
    after = batch.at(-1)!.position;
  }
  await store.close();
  db = createKnex(database.url, { max: 2 });
}, 120_000);
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

let schemas = 0;
/**
 * How a replay goes through the log: the ordinary `apply` (a live build), or
 * the projection's staged replay settled at the end (a rebuild), or a rebuild
 * that settles, follows the log the ordinary way for a while, and is then
 * restarted (staging again) before it settles for good.
 */
type Mode = 'ordinary' | 'staged' | 'restarted' | 'unsettled';

/** Every table of the projection, each row as JSON text, in a stable order. */
async function replay(projection: Projection, events: readonly RecordedEvent[], batchSize: number, mode: Mode = 'ordinary'): Promise<Record<string, string[]>> {
  const schema = `eq_${projection.name}_${++schemas}`;
  const inSchema = <T>(work: (trx: Knex.Transaction) => Promise<T>) =>
    db.transaction(async (trx) => {
      await trx.raw(`SET LOCAL search_path TO "${schema}", public`);
      return work(trx);
    });
  await db.raw(`CREATE SCHEMA "${schema}"`);
  await inSchema((trx) => projection.migrate(trx));
  // the one-event batches of the baseline share transactions (the result is the same, the test is faster)
  const perTransaction = batchSize === 1 ? 200 : batchSize;
  const stages = projection.replay !== undefined;
  const settleAt = mode === 'restarted' ? [Math.floor(events.length / 3), Math.floor((events.length * 2) / 3)] : [];
  let staging = mode !== 'ordinary' && stages;
  for (let i = 0; i < events.length; i += perTransaction) {
    await inSchema(async (trx) => {
      const slice = events.slice(i, i + perTransaction);
      for (let j = 0; j < slice.length; j += batchSize) {
        const batch = slice.slice(j, j + batchSize);
        await (staging ? replayApply(projection) : projection.apply)(trx, batch);
        const done = i + j + batch.length;
        // settled a third of the way in, ordinary until two thirds, then a restart stages the rest
        if (staging && done >= settleAt[0]! && settleAt.length === 2) {
          await settleReplay(trx, projection);
          staging = false;
        } else if (!staging && stages && mode === 'restarted' && done >= settleAt[1]!) {
          staging = true;
          settleAt.length = 0;
        }
      }
    });
  }
  if (staging && mode !== 'unsettled') await inSchema((trx) => settleReplay(trx, projection));
  const { rows: tables } = await db.raw<{ rows: { table_name: string }[] }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE' AND table_name <> 'migrations' ORDER BY table_name`,
    [schema],
  );
  const dump: Record<string, string[]> = {};
  for (const { table_name } of tables) {
    const { rows } = await db.raw<{ rows: { row: string }[] }>(`SELECT to_jsonb(t)::text AS row FROM "${schema}"."${table_name}" t`);
    dump[table_name] = rows.map((r) => r.row).sort();
  }
  await db.raw(`DROP SCHEMA "${schema}" CASCADE`);
  return dump;
}

describe('given a realistic log of 2.5k events', () => {
  it('has the batches that make the orders in question', () => {
    expect(log.length).toBeGreaterThanOrEqual(2_500);
    const types = new Set(log.map((e) => e.type));
    for (const type of ['UserRegistered', 'ProfileUpdated', 'PostCreated', 'PostDeleted', 'VoteCast', 'CommentAdded', 'CommentRemoved', 'CommentReported', 'UserWarned']) {
      expect(types.has(type), type).toBe(true);
    }
  });

  it.each(allProjections.map((p) => [p.name, p] as const))('when %s replays it in batches of 1, 7, 333 or all at once, then its tables are the same', async (_name, projection) => {
    const baseline = await replay(projection, log, 1);
    expect(Object.values(baseline).some((rows) => rows.length > 0)).toBe(true);
    for (const size of [7, 333, log.length]) expect(await replay(projection, log, size), `batch ${size}`).toEqual(baseline);
  }, 120_000);

  it.each(allProjections.filter((p) => p.replay).map((p) => [p.name, p] as const))(
    'when %s replays it staged (as a rebuild does) and settles, in batches of 1, 7, 333 or all at once, or settles, goes on and restarts, then its tables are the ordinary ones',
    async (_name, projection) => {
      const baseline = await replay(projection, log, 333);
      // before it settles, the staged replay has recorded facts (in tables that are empty once it has)
      const unsettled = await replay(projection, log, 333, 'unsettled');
      expect(Object.entries(unsettled).filter(([table, rows]) => table.startsWith('replay_') && rows.length > 0).length).toBeGreaterThan(0);
      expect(unsettled).not.toEqual(baseline);
      for (const size of [1, 7, 333, log.length]) expect(await replay(projection, log, size, 'staged'), `staged, batch ${size}`).toEqual(baseline);
      for (const size of [7, 333]) expect(await replay(projection, log, size, 'restarted'), `restarted, batch ${size}`).toEqual(baseline);
    },
    120_000,
  );
});
