import { anyNumber, waitFor } from '@forum/platform/testing';
import pg from 'pg';
import { createLogger } from '@forum/platform';
import { describe, expect, it } from 'vitest';
import { createProjectionRunner } from './runner.ts';
import { projectionsCheck } from './status.ts';
import { countingProjection } from './testing/counting-projection.ts';
import { tick, useTickLog } from './testing/ticks.ts';

const logger = createLogger('test', process.env.TEST_LOG ?? 'silent');

// the test holds a transaction open, which would stall the projections of tests on the shared server
const log = useTickLog('status', { isolated: true });

/** Whether a reader starting now plans `SELECT … WHERE stream_id = 'ticks'` on the live build's `applied` with the index `applied_stream`. */
async function readerUsesIndex(): Promise<boolean> {
  const plan = await log.db.transaction(async (trx) => {
    await trx.raw('SET LOCAL enable_seqscan TO off');
    return (await trx.raw<{ rows: { 'QUERY PLAN': string }[] }>("EXPLAIN SELECT * FROM aged_v1.applied WHERE stream_id = 'ticks'")).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
  });
  return /applied_stream/.test(plan);
}

describe('readiness and the read indexes of a live build', () => {
  it('counts an index built with indcheckxmin as missing while a transaction older than it runs, and as there once it ends', { timeout: 60_000 }, async () => {
    const aged = countingProjection({ name: 'aged' });
    const streamId = 'ticks';
    for (let i = 0; i < 2000; i += 100) {
      await log.store.append([{ streamId, expectedVersion: i === 0 ? 'no_stream' : i, events: Array.from({ length: 100 }, (_, k) => tick(i + k)) }]);
    }
    const older = new pg.Client({ connectionString: log.url });
    await older.connect();
    // the first build of `aged` is live from its start: it replays the log, then builds its indexes
    const runner = createProjectionRunner({ db: log.db, connectionString: log.url, store: log.store, logger, projections: [aged], buildBatchSize: 100 });
    try {
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      await runner.start();
      await waitFor(
        () => log.db.raw<{ rows: unknown[] }>(`SELECT 1 FROM pg_index WHERE indexrelid = to_regclass('aged_v1.applied_stream')`),
        (r) => r.rows.length === 1,
        30_000,
      );
      // PostgreSQL sets indcheckxmin, in the transaction that builds an index, when its scan finds rows
      // updated in place (HOT) that an older transaction may still see: what the scan finds is not the
      // test's to decide. Set here as PostgreSQL would (the test server's user is a superuser), by a
      // transaction newer than `older`: the same condition every run.
      const marked = await log.db.raw<{ rows: unknown[] }>(
        `UPDATE pg_index SET indcheckxmin = true WHERE indexrelid = to_regclass('aged_v1.applied_stream') RETURNING 1`,
      );
      expect(marked.rows).toHaveLength(1);

      // the planner leaves it out for a reader starting now: readiness says so
      expect(await readerUsesIndex()).toBe(false);
      const before = await projectionsCheck(log.db, 1_000_000, [aged]);
      expect(before.ok).toBe(false);
      expect(before.detail).toEqual([{ name: 'aged', version: 1, build: 1, state: 'live', lag: anyNumber, missingIndexes: ['applied_stream'] }]);

      await older.query('COMMIT');
      // usable once no transaction older than the index's pg_index row runs (the runner's own too)
      expect(await waitFor(readerUsesIndex, (usable) => usable, 30_000)).toBe(true);
      const after = await projectionsCheck(log.db, 1_000_000, [aged]);
      expect(after).toEqual({ ok: true, detail: [{ name: 'aged', version: 1, build: 1, state: 'live', lag: anyNumber }] });
    } finally {
      await older.end();
      await runner.stop();
    }
  });
});
