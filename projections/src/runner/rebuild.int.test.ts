import { anyNumber, waitFor } from '@forum/platform/testing';
import pg from 'pg';
import { createKnex, createLogger } from '@forum/platform';
import { describe, expect, it } from 'vitest';
import { rebuildProjections } from '../operations/rebuild.ts';
import { publishIfLive, readCheckpoint, requestRebuild } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import { createProjectionRunner, type RunnerOptions } from './runner.ts';
import { projectionsCheck, projectionStatus } from './status.ts';
import { countingProjection } from './testing/counting-projection.ts';
import { tick, useTickLog } from './testing/ticks.ts';

const logger = createLogger('test', process.env.TEST_LOG ?? 'silent');

// some tests here hold a transaction open, which would stall the projections of tests on the shared server
const log = useTickLog('rebuild', { isolated: true });

async function appendTicks(count: number) {
  const streamId = `tick-${Math.random().toString(36).slice(2)}`;
  for (let i = 0; i < count; i += 100) {
    await log.store.append([
      { streamId, expectedVersion: i === 0 ? 'no_stream' : i, events: Array.from({ length: Math.min(100, count - i) }, (_, k) => tick(i + k)) },
    ]);
  }
}

const schemaExists = async (schema: string) =>
  (await log.db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = ?', [schema])).rows[0]!.n === 1;
/** What readers see through the `read` views: rows, distinct positions and the running total. */
const readModel = async (name: string) =>
  (
    await log.db.raw<{ rows: { rows: number; distinct_positions: number; total: number }[] }>(
      `SELECT (SELECT count(*) FROM read."${name}_applied")::int AS rows,
              (SELECT count(DISTINCT pos) FROM read."${name}_applied")::int AS distinct_positions,
              (SELECT value FROM read."${name}_total")::int AS total`,
    )
  ).rows[0]!;

const visible = (name: string, options: Parameters<typeof countingProjection>[0] = {}) =>
  countingProjection({ name, exposes: { [`${name}_applied`]: 'applied', [`${name}_total`]: 'total' }, ...options });

/** A runner of `projections` on the test log, with `options` on top. */
const runnerFor = (projections: readonly Projection[], options: Partial<RunnerOptions> = {}) =>
  createProjectionRunner({ db: log.db, connectionString: log.url, store: log.store, logger, projections, ...options });

/** `ticks` more ticks, applied by the live builds of `names` (visible); then their runner stops, as the forum would. The log's events in all. */
async function liveThenStopped(names: readonly string[], ticks: number): Promise<number> {
  const live = runnerFor(names.map((name) => visible(name)));
  await live.start();
  await appendTicks(ticks);
  const total = await log.eventCount();
  for (const name of names)
    await waitFor(
      () => readModel(name),
      (m) => m.total === total,
    );
  await live.stop();
  return total;
}

describe('blue-green rebuild', () => {
  // the rebuild stages its totals and settles them before it switches in (a live build that follows the log from its start applies it the ordinary way)
  it('switches reads to a rebuilt copy while reads and writes go on: no read fails, none goes back, no event is missing', { timeout: 120_000 }, async () => {
    const runner = runnerFor([visible('bg', { staged: true })], { buildBatchSize: 500, standbyRetryMs: 200 });
    await runner.start();
    await appendTicks(3000);
    const before = await log.eventCount();
    await waitFor(
      () => readModel('bg'),
      (m) => m.total === before,
    );
    // the first build was live from its first batch: it applied the ordinary way, staging nothing
    expect((await log.db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM bg_v1.replay_total')).rows[0]!.n).toBe(0);

    let writing = true;
    const writes = (async () => {
      let n = 0;
      // writes go on at a forum's pace, not as fast as the machine allows: a rebuild chasing a
      // writer that outruns it would catch up only by chance
      while (writing) {
        await appendTicks(20);
        n += 20;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return n;
    })();
    let reading = true;
    const reads = { ok: 0, failed: 0, wentBack: 0, errors: [] as string[] };
    const reader = createKnex(log.url, { max: 4 });
    const readers = Array.from({ length: 3 }, async () => {
      let last = 0;
      while (reading) {
        try {
          const { rows } = await reader.raw<{ rows: { value: number }[] }>('SELECT value::int AS value FROM read.bg_total');
          const total = rows[0]!.value;
          if (total < last) reads.wentBack++;
          last = total;
          reads.ok++;
        } catch (error) {
          reads.failed++;
          reads.errors.push((error as Error).message);
        }
      }
    });

    try {
      const request = await requestRebuild(log.db, { name: 'bg', version: 1 }, 'operator:test');
      expect(request).toMatchObject({ resumed: false, build: { name: 'bg', version: 1, build: 2, state: 'building', requestedBy: 'operator:test' } });
      // the forum's runner learns of the build from the NOTIFY, builds it and switches reads to it
      await waitFor(
        () => readCheckpoint(log.db, { name: 'bg', version: 1, build: 2 }),
        (row) => row?.state === 'live',
      );
      await new Promise((resolve) => setTimeout(resolve, 300)); // reads and writes go on after the switch
    } finally {
      writing = false;
      reading = false;
      await Promise.all(readers);
      await reader.destroy();
    }
    const written = await writes;
    expect(written).toBeGreaterThan(0);

    const total = await log.eventCount();
    const model = await waitFor(
      () => readModel('bg'),
      (m) => m.rows >= total,
    );
    try {
      expect(model).toEqual({ rows: total, distinct_positions: total, total });
      expect(reads.failed, reads.errors.slice(0, 3).join('\n')).toBe(0);
      expect(reads.wentBack).toBe(0);
      expect(reads.ok).toBeGreaterThan(10);
      // the old build is retired and its schema dropped; the new one follows new events
      expect(
        await waitFor(
          () => schemaExists('bg_v1'),
          (exists) => !exists,
        ),
      ).toBe(false);
      expect((await readCheckpoint(log.db, { name: 'bg', version: 1, build: 1 }))?.state).toBe('retired');
      await appendTicks(10);
      await waitFor(
        () => readModel('bg'),
        (m) => m.total === total + 10,
      );
      const status = (await projectionStatus(log.db)).filter((s) => s.name === 'bg');
      expect(status).toMatchObject([{ build: 2, schema: 'bg_v1_b2', state: 'live', lag: 0, requestedBy: 'operator:test' }]);
      // it went live with its tables analysed: the planner knows what the replay put in them
      const { rows: analysed } = await log.db.raw<{ rows: { relname: string; analysed: boolean }[] }>(
        `SELECT relname, last_analyze IS NOT NULL AS analysed FROM pg_stat_user_tables WHERE schemaname = 'bg_v1_b2' ORDER BY relname`,
      );
      expect(analysed.length).toBeGreaterThan(1);
      expect(analysed.filter((t) => !t.analysed)).toEqual([]);
    } finally {
      await runner.stop();
    }
  });

  it('resumes an interrupted rebuild from its checkpoint, and never runs two builds of one projection', { timeout: 120_000 }, async () => {
    // the forum is down: the rebuild runs on its own, as forumctl's does
    const total = await liveThenStopped(['resume'], 4000);

    const first = await requestRebuild(log.db, { name: 'resume', version: 1 }, 'operator:test');
    const again = await requestRebuild(log.db, { name: 'resume', version: 1 }, 'operator:other');
    expect(again).toMatchObject({ resumed: true, build: { build: first.build.build } });

    // a build held part way (its 1,500th event waits for the gate), then interrupted
    let applied = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = visible('resume', {
      staged: true,
      onEvent: async () => {
        if (++applied === 1500) await gate;
      },
    });
    const builder = runnerFor([slow], { only: 'building', buildBatchSize: 250, stageRangeSize: 250 });
    await builder.start();
    // a second builder stands by: the build has one owner
    const second = runnerFor([visible('resume')], { only: 'building', standbyRetryMs: 100 });
    await second.start();
    expect(second.workers()).toMatchObject([{ build: 2, role: 'building', state: 'standby' }]);
    await second.stop();

    const key = { name: 'resume', version: 1, build: 2 };
    await waitFor(
      () => Promise.resolve(applied),
      (n) => n >= 1500,
    );
    const part = await readCheckpoint(log.db, key);
    expect(part!.position.globalPosition).toBeGreaterThan(0n);
    const stopping = builder.stop();
    release();
    await stopping;
    const interrupted = await readCheckpoint(log.db, key);
    expect(interrupted?.state).toBe('building');
    expect(interrupted!.position.globalPosition).toBeGreaterThanOrEqual(part!.position.globalPosition);
    expect(interrupted!.position.globalPosition).toBeLessThan(BigInt(total));

    // running it again goes on from the checkpoint: the first event it applies is past it
    let firstApplied: bigint | null = null;
    const resumed = runnerFor([visible('resume', { staged: true, onEvent: (pos) => void (firstApplied ??= pos) })], { only: 'building' });
    await resumed.start();
    try {
      await waitFor(
        () => readCheckpoint(log.db, key),
        (row) => row?.state === 'live',
      );
      expect(firstApplied).toBeGreaterThan(interrupted!.position.globalPosition);
      expect(await readModel('resume')).toEqual({ rows: total, distinct_positions: total, total });
      // the retired build's schema is dropped just after the switch (under load, a moment later)
      expect(
        await waitFor(
          () => schemaExists('resume_v1'),
          (exists) => !exists,
        ),
      ).toBe(false);
    } finally {
      await resumed.stop();
    }
  });

  it('switches in only once readers can use its indexes: not while a transaction older than them runs', { timeout: 60_000 }, async () => {
    const base = visible('aged');
    // an index over the running total, which each batch updates in place (HOT): built while an older
    // transaction still may see the total's old versions, the planner leaves it out for readers as old
    const aged = {
      ...base,
      indexes: { ...base.indexes, total: ['CREATE INDEX IF NOT EXISTS total_value ON total (value)'] },
    };
    const runner = runnerFor([aged], { buildBatchSize: 100, standbyRetryMs: 200 });
    await runner.start();
    const older = new pg.Client({ connectionString: log.url });
    await older.connect();
    try {
      await appendTicks(1000);
      const total = await log.eventCount();
      await waitFor(
        () => readModel('aged'),
        (m) => m.total === total,
      );
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      await requestRebuild(log.db, { name: 'aged', version: 1 }, 'operator:test');
      const checked = await waitFor(
        () => log.db.raw<{ rows: { indcheckxmin: boolean }[] }>(`SELECT indcheckxmin FROM pg_index WHERE indexrelid = to_regclass('aged_v1_b2.total_value')`),
        (result) => result.rows.length === 1,
      );
      expect(checked.rows).toEqual([{ indcheckxmin: true }]);
      // caught up, indexed, and still building while the older transaction runs
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await readCheckpoint(log.db, { name: 'aged', version: 1, build: 2 })).toMatchObject({ state: 'building', position: await log.store.head() });
      await older.query('COMMIT');
      await waitFor(
        () => readCheckpoint(log.db, { name: 'aged', version: 1, build: 2 }),
        (row) => row?.state === 'live',
      );
      // a reader now may use it (one row: the planner takes it only when told to avoid scanning)
      const plan = await log.db.transaction(async (trx) => {
        await trx.raw('SET LOCAL enable_seqscan TO off');
        return (await trx.raw<{ rows: { 'QUERY PLAN': string }[] }>('EXPLAIN SELECT * FROM read.aged_total WHERE value = 1')).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      });
      expect(plan).toMatch(/total_value/);
    } finally {
      await older.end();
      await runner.stop();
    }
  });

  it('builds a new version of a projection beside the old one and switches when it has caught up', { timeout: 60_000 }, async () => {
    const total = await liveThenStopped(['upgrade'], 500);

    // v2 changes the exposed table's columns: its views are replaced, not just repointed
    const upgraded = visible('upgrade', { version: 2 });
    const v2Projection = {
      ...upgraded,
      async migrate(trx: Parameters<typeof upgraded.migrate>[0]) {
        await trx.raw('CREATE TABLE IF NOT EXISTS applied (note text, pos bigint NOT NULL, stream_id text NOT NULL, stream_version integer NOT NULL)');
        await upgraded.migrate(trx);
      },
    };
    const v2 = runnerFor([v2Projection]);
    await v2.start();
    try {
      await waitFor(
        () => readCheckpoint(log.db, { name: 'upgrade', version: 2, build: 1 }),
        (row) => row?.state === 'live',
      );
      expect(await readModel('upgrade')).toEqual({ rows: total, distinct_positions: total, total });
      expect((await log.db.raw<{ rows: unknown[] }>(`SELECT note FROM read.upgrade_applied LIMIT 1`)).rows).toEqual([{ note: null }]);
      expect((await readCheckpoint(log.db, { name: 'upgrade', version: 1, build: 1 }))?.state).toBe('retired');
      expect(
        await waitFor(
          () => schemaExists('upgrade_v1'),
          (exists) => !exists,
        ),
      ).toBe(false);
    } finally {
      await v2.stop();
    }
    // the old code, started again by mistake, finds itself superseded and builds nothing
    const stale = runnerFor([visible('upgrade')]);
    await stale.start();
    expect(stale.workers()).toEqual([]);
    await stale.stop();
  });

  it('builds replaying the log together share one read of it', { timeout: 60_000 }, async () => {
    const names = ['share_a', 'share_b', 'share_c'];
    const total = await liveThenStopped(names, 2000);

    let reads = 0;
    const sql = log.store.sql!;
    const counting = {
      ...log.store,
      readAll: (...args: Parameters<typeof log.store.readAll>) => (reads++, log.store.readAll(...args)),
      // the builds name their event types: the reader fetches only those
      sql: { ...sql, read: (...args: Parameters<typeof sql.read>) => (reads++, sql.read(...args)) },
    };
    for (const name of names) await requestRebuild(log.db, { name, version: 1 }, 'operator:test');
    const builder = runnerFor(
      names.map((n) => visible(n)),
      { store: counting, only: 'building', buildBatchSize: 1000 },
    );
    await builder.start();
    try {
      for (const name of names)
        await waitFor(
          () => projectionStatus(log.db),
          (all) => all.some((s) => s.name === name && s.build === 2 && s.role === 'live'),
        );
      for (const name of names) expect(await readModel(name)).toEqual({ rows: total, distinct_positions: total, total });
      // one pass over the log (at most a batch per 1,000 events, and the tail), not one per build
      expect(reads).toBeLessThan(Math.ceil(total / 1000) + 20);
      expect(reads).toBeGreaterThan(0);
      // the read indexes were built once each build had replayed the log, not maintained through it:
      // every row was written by a transaction older than the index's
      for (const name of names) {
        const { rows } = await log.db.raw<{ rows: { before: number; after: number }[] }>(
          `SELECT count(*) FILTER (WHERE age(a.xmin) > age(i.xmin))::int AS before, count(*) FILTER (WHERE age(a.xmin) <= age(i.xmin))::int AS after
           FROM "${name}_v1_b2".applied a, pg_index i WHERE i.indexrelid = to_regclass('"${name}_v1_b2".applied_stream')`,
        );
        expect(rows).toEqual([{ before: total, after: 0 }]);
      }
    } finally {
      await builder.stop();
    }
  });

  it("waits between looks at the builds' progress, with or without a way to interrupt it", { timeout: 60_000 }, async () => {
    const total = await liveThenStopped(['paced'], 300);

    // the rebuild takes a second and a half at its first event
    let first = true;
    const slow = visible('paced', {
      staged: true,
      onEvent: async () => {
        if (first) await new Promise((resolve) => setTimeout(resolve, 1500));
        first = false;
      },
    });
    let looks = 0;
    const outcome = await rebuildProjections({
      db: log.db,
      connectionString: log.url,
      store: log.store,
      projections: [slow],
      requestedBy: 'operator:test',
      logger,
      onProgress: () => void (looks += 1),
    });
    expect(outcome.failed).toEqual([]);
    expect(await readModel('paced')).toEqual({ rows: total, distinct_positions: total, total });
    // about two looks a second (a loop that did not wait made thousands, each two queries)
    expect(looks).toBeGreaterThanOrEqual(2);
    expect(looks).toBeLessThanOrEqual(Math.ceil(outcome.seconds * 2) + 2);
  });

  it(
    'does not switch in a build whose replay missed events: it halts with the reason, the live build serves on, the next rebuild replaces it',
    { timeout: 60_000 },
    async () => {
      const total = await liveThenStopped(['unaccounted'], 1200);
      // a reader that loses every 97th event on the way, as the shared reader once did
      const lossy = {
        ...log.store,
        sql: {
          ...log.store.sql!,
          read: async (...args: Parameters<NonNullable<typeof log.store.sql>['read']>) =>
            (await log.store.sql!.read(...args)).filter((e) => e.position.globalPosition % 97n !== 0n),
        },
      };
      const first = await requestRebuild(log.db, { name: 'unaccounted', version: 1 }, 'operator:test');
      const builder = runnerFor([visible('unaccounted')], { store: lossy, only: 'building', buildBatchSize: 300 });
      await builder.start();
      let status;
      try {
        status = await waitFor(
          () => projectionStatus(log.db),
          (all) => all.some((s) => s.name === 'unaccounted' && s.build === first.build.build && s.state === 'halted'),
        );
      } finally {
        await builder.stop();
      }
      const lost = (await log.db.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM eventstore.events WHERE global_position % 97 = 0`)).rows[0]!.n;
      const halted = status.find((s) => s.name === 'unaccounted' && s.role === 'building')!;
      expect(halted.error).toBe(
        `its replay does not account for the log: it applied ${total - lost} of the ${total} events of its types (Tick) up to ${halted.checkpoint}. ` +
          'Not switched in: the live build goes on serving; rebuild unaccounted again for a new build',
      );
      // reads still come from the live build, whole; readiness stays (a halted rebuild is shown, not a problem)
      expect(status.filter((s) => s.name === 'unaccounted').map((s) => [s.build, s.role, s.state])).toEqual([
        [1, 'live', 'live'],
        [first.build.build, 'building', 'halted'],
      ]);
      expect(await readModel('unaccounted')).toEqual({ rows: total, distinct_positions: total, total });
      // (this file's other projections are stopped and behind: /readyz's detail is what is checked here)
      const check = await projectionsCheck(log.db, 1_000_000, []);
      expect(check.detail.filter((d) => d.name === 'unaccounted')).toEqual([
        { name: 'unaccounted', version: 1, build: 1, state: 'live', lag: 0 },
        { name: 'unaccounted', version: 1, build: first.build.build, state: 'halted', lag: anyNumber, error: halted.error, failedPosition: halted.checkpoint },
      ]);

      // a runner started again does not resume it; a rebuild request replaces it
      const again = runnerFor([visible('unaccounted')], { only: 'building' });
      await again.start();
      expect(again.workers()).toMatchObject([{ build: first.build.build, state: 'halted' }]);
      await again.stop();
      const outcome = await rebuildProjections({
        db: log.db,
        connectionString: log.url,
        store: log.store,
        projections: [visible('unaccounted')],
        requestedBy: 'operator:test',
        logger,
      });
      expect(outcome.failed).toEqual([]);
      expect(outcome.progress).toMatchObject([{ build: { build: first.build.build + 1 }, state: 'live' }]);
      expect((await readCheckpoint(log.db, first.build))?.state).toBe('retired');
      expect(await readModel('unaccounted')).toEqual({ rows: total, distinct_positions: total, total });
    },
  );

  it('a worker that read its build as live before a switch does not point the views back at it', { timeout: 60_000 }, async () => {
    const total = await liveThenStopped(['stale'], 200);
    const outcome = await rebuildProjections({
      db: log.db,
      connectionString: log.url,
      store: log.store,
      projections: [visible('stale')],
      requestedBy: 'operator:test',
      logger,
    });
    expect(outcome.failed).toEqual([]);
    const viewedSchema = async () =>
      (
        await log.db.raw<{ rows: { schema: string }[] }>(
          `SELECT DISTINCT n.nspname AS schema FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid JOIN pg_class v ON v.oid = r.ev_class
         JOIN pg_class t ON t.oid = d.refobjid JOIN pg_namespace n ON n.oid = t.relnamespace
         WHERE v.relname = 'stale_applied' AND t.oid <> v.oid`,
        )
      ).rows.map((r) => r.schema);
    expect(await viewedSchema()).toEqual(['stale_v1_b2']);
    // the old build's worker, holding a row read before the switch, tries to republish its views
    let published = false;
    const republished = await log.db.transaction((trx) =>
      publishIfLive(trx, { name: 'stale', version: 1, build: 1 }, async (t) => {
        published = true;
        await t.raw(`CREATE OR REPLACE VIEW read.stale_applied AS SELECT * FROM stale_v1.applied`);
      }),
    );
    expect([republished, published]).toEqual([false, false]);
    expect(await viewedSchema()).toEqual(['stale_v1_b2']);
    expect(await readModel('stale')).toEqual({ rows: total, distinct_positions: total, total });
  });
});

describe('a first build over a log far ahead of it', () => {
  it(
    'stages the log and settles it, and a restart part way through the staging goes on from its checkpoint and settles it all',
    { timeout: 120_000 },
    async () => {
      // the forum's first start on a loaded log: no build of the projection yet, the log far ahead of the batch size
      await appendTicks(4000);
      const total = await log.eventCount();
      const settings = { buildBatchSize: 250, stageRangeSize: 250 };
      const key = { name: 'first', version: 1, build: 1 };

      // staging held part way (its 1,500th staged event waits for the gate), then the forum stops
      let staged = 0;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const first = runnerFor(
        [
          visible('first', {
            staged: true,
            onEvent: async () => {
              if (++staged === 1500) await gate;
            },
          }),
        ],
        settings,
      );
      await first.start();
      await waitFor(
        () => Promise.resolve(staged),
        (n) => n >= 1500,
      );
      const stopping = first.stop();
      release();
      await stopping;
      const interrupted = (await readCheckpoint(log.db, key))!;
      expect(interrupted.state).toBe('live');
      // staging had begun: where is kept, and some ranges are in
      expect(interrupted.stagedFrom).not.toBeNull();
      expect(interrupted.position.globalPosition).toBeGreaterThan(0n);
      expect(interrupted.position.globalPosition).toBeLessThan(BigInt(total));

      // started again: it stages the rest and settles the whole stretch (the counts of both runs), each event once
      const again = runnerFor([visible('first', { staged: true })], settings);
      await again.start();
      try {
        await waitFor(
          () => readModel('first'),
          (m) => m.total === total,
        );
        expect(await readModel('first')).toEqual({ rows: total, distinct_positions: total, total });
        const done = (await readCheckpoint(log.db, key))!;
        expect(done.stagedFrom).toBeNull();
        expect((await log.db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM first_v1.replay_total')).rows[0]!.n).toBe(0);
      } finally {
        await again.stop();
      }
    },
  );
});
