import type { EventStore } from '@forum/eventstore';
import { waitFor } from '@forum/platform/testing';
import { createLogger } from '@forum/platform';
import { describe, expect, it } from 'vitest';
import { verifyProjection } from '../operations/verify.ts';
import { requestRebuild } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import { createProjectionRunner, type ProjectionRunner } from './runner.ts';
import { projectionStatus } from './status.ts';
import { countingProjection } from './testing/counting-projection.ts';
import { openTickLog, tick, type TickLog } from './testing/ticks.ts';

/**
 * The runner, tried at random: several projections of random event types (some
 * staging their replay), a random log that grows while builds replay it, builds
 * joining the shared reader at random moments, random batch and range sizes,
 * reads that are slow or fail, batches that fail before they commit, runners
 * stopped mid-way and started again. Whatever happens, every projection must
 * end equal to a replay of the log: each event of its types applied exactly once.
 *
 * `npm test` tries a few seeds; try many with
 * `RUNNER_FUZZ_SEEDS=200 npx vitest run projections/src/runner/runner.fuzz.int.test.ts`
 * (`RUNNER_FUZZ_FROM` sets the first seed). A seed fixes the choices, not the
 * timing: a failure names its seed and what it chose, to try it again.
 */
const FROM = Number(process.env.RUNNER_FUZZ_FROM ?? 1);
const SEEDS = Number(process.env.RUNNER_FUZZ_SEEDS ?? 3);
const TYPES = ['Tick', 'Tock', 'Tack', 'Tuck'];

const logger = createLogger('test', process.env.TEST_LOG ?? 'silent');

/** mulberry32: a small seeded generator. */
function generator(seed: number) {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    random,
    int: (min: number, max: number) => min + Math.floor(random() * (max - min + 1)),
    chance: (p: number) => random() < p,
    pick: <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!,
  };
}
type Generator = ReturnType<typeof generator>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const transient = () => Object.assign(new Error('chaos: connection reset'), { code: 'ECONNRESET' });

/** What goes wrong while chaos is on: reads that wait or fail, batches that fail before they commit. */
interface Chaos {
  on: boolean;
  readonly slowReads: number;
  readonly failedReads: number;
  readonly failedBatches: number;
}

function chaoticStore(store: EventStore, chaos: Chaos, g: Generator): EventStore {
  const disturb = async () => {
    if (!chaos.on) return;
    if (g.chance(chaos.slowReads)) await sleep(g.int(5, 150));
    if (g.chance(chaos.failedReads)) throw transient();
  };
  const sql = store.sql!;
  return {
    ...store,
    readAll: async (...args) => (await disturb(), store.readAll(...args)),
    sql: {
      ...sql,
      nextRange: async (...args) => (await disturb(), sql.nextRange(...args)),
      read: async (...args) => (await disturb(), sql.read(...args)),
    },
  };
}

/** The projection, whose batches and staged ranges sometimes fail after writing, before they commit. */
function chaotic(projection: Projection, chaos: Chaos, g: Generator): Projection {
  const fail = () => {
    if (chaos.on && g.chance(chaos.failedBatches)) throw Object.assign(new Error('chaos: serialization failure'), { code: '40001' });
  };
  return {
    ...projection,
    apply: async (trx, events) => (await projection.apply(trx, events), fail()),
    replay: projection.replay && {
      ...projection.replay,
      stage: async (trx, relation, range) => (await projection.replay!.stage(trx, relation, range), fail()),
    },
  };
}

/** Random appends of 1 to 40 events of random types (some seeds leave a type out) on random streams, two at once. */
function writer(log: TickLog, g: Generator, types: readonly string[], prefix: string) {
  let n = 0;
  const appendOne = async () => {
    const events = Array.from({ length: g.int(1, 40) }, () => tick(n++, g.pick(types)));
    await log.store.append([{ streamId: `${prefix}-${g.int(0, 7)}`, expectedVersion: 'any', events }]);
  };
  return {
    /** About `events` events, on two connections at once (their transactions interleave). */
    async append(events: number) {
      const start = n;
      while (n - start < events) await Promise.all([appendOne(), appendOne()]);
    },
  };
}

/** One seed's run, on a database of its own: every seed replays a log of its own size. */
async function fuzz(log: TickLog, seed: number) {
  const g = generator(seed);
  const types = TYPES.filter(() => g.chance(0.8));
  if (types.length === 0) types.push('Tick');
  const chaos: Chaos = { on: false, slowReads: g.random() * 0.3, failedReads: g.random() * 0.05, failedBatches: g.random() * 0.05 };
  const choices: Record<string, unknown> = { seed, types, chaos: { ...chaos } };
  const base = Array.from({ length: g.int(2, 4) }, (_, i) => {
    const own = TYPES.filter(() => g.chance(0.5));
    const name = `fz${seed}_${i}`;
    return countingProjection({
      name,
      types: own.length > 0 ? own : [g.pick(TYPES)],
      staged: g.chance(0.5),
      exposes: { [`${name}_applied`]: 'applied', [`${name}_total`]: 'total' },
    });
  });
  choices.projections = base.map((p) => ({ name: p.name, types: p.types, staged: p.replay !== undefined }));
  const projections = base.map((p) => chaotic(p, chaos, g));
  const store = chaoticStore(log.store, chaos, g);
  const names = projections.map((p) => p.name);
  const write = writer(log, g, types, `fz${seed}`);
  const runners: ProjectionRunner[] = [];
  const startRunner = async (only?: 'building') => {
    const options = { batchSize: g.int(1, 300), buildBatchSize: g.int(20, 2000), stageRangeSize: g.int(50, 1500), standbyRetryMs: 100 };
    (choices.runners as unknown[]).push({ only: only ?? 'all', ...options });
    const runner = createProjectionRunner({ db: log.db, connectionString: log.url, store, logger, projections, only, ...options });
    runners.push(runner);
    await runner.start();
    return runner;
  };
  const stopRunner = async (runner: ProjectionRunner) => {
    runners.splice(runners.indexOf(runner), 1);
    await runner.stop();
  };
  choices.runners = [];
  const ours = async () => (await projectionStatus(log.db)).filter((s) => names.includes(s.name));
  const settled = async <T>(wait: Promise<T>): Promise<T> => {
    try {
      return await wait;
    } catch (error) {
      const { rows } = await log.db.raw<{ rows: unknown[] }>(
        `SELECT application_name, state, backend_xid::text, backend_xmin::text, xact_start, left(query, 200) AS query FROM pg_stat_activity WHERE datname = current_database()`,
      );
      const { rows: snap } = await log.db.raw<{ rows: unknown[] }>(`SELECT pg_current_snapshot()::text AS snap`);
      throw new Error(
        `${(error as Error).message}\nworkers: ${JSON.stringify(
          runners.map((r) => r.workers()),
          (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v),
        )}\nsessions: ${JSON.stringify(rows)}\nsnapshot ${JSON.stringify(snap)}\n${JSON.stringify(choices)}`,
        { cause: error },
      );
    }
  };

  try {
    // the first builds: live from their first batch, the log far ahead of them when it is long
    await write.append(g.int(0, 2500));
    chaos.on = true;
    let forum: ProjectionRunner | null = await startRunner();
    await write.append(g.int(0, 500));
    await settled(waitFor(ours, (all) => all.length === names.length && all.every((s) => s.role === 'live' && s.lag === 0 && !s.error), 30_000));
    if (g.chance(0.5)) {
      await stopRunner(forum);
      forum = null;
    }

    // rebuilds, asked for at random moments, while the log grows and runners stop and start
    let writing = true;
    const writes = (async () => {
      while (writing) {
        await write.append(g.int(1, 200));
        await sleep(g.int(0, 50));
      }
    })();
    let builder = await startRunner('building');
    const asked = (async () => {
      for (const projection of [...projections].sort(() => g.random() - 0.5)) {
        await sleep(g.int(0, 300));
        await requestRebuild(log.db, projection, 'operator:fuzz', { notify: g.chance(0.5) });
        void builder.sync().catch(() => {});
      }
    })();
    for (let crashes = g.int(0, 2); crashes > 0; crashes--) {
      await sleep(g.int(0, 800));
      await stopRunner(builder);
      builder = await startRunner('building');
    }
    await asked;
    await sleep(g.int(0, 500));
    writing = false;
    await writes;

    // the rest without chaos: every build switches in and follows the log to its head
    chaos.on = false;
    forum ??= await startRunner();
    const done = await settled(
      waitFor(
        ours,
        (all) => all.some((s) => s.error !== null) || (all.length === names.length && all.every((s) => s.role === 'live' && s.build >= 2 && s.lag === 0)),
        30_000,
      ),
    );
    expect(
      done.filter((s) => s.error !== null),
      JSON.stringify(choices),
    ).toEqual([]);
  } finally {
    for (const runner of [...runners]) await stopRunner(runner);
  }

  for (const projection of base) {
    const { rows } = await log.db.raw<{ rows: { missing: number; extra: number; total: number; expected: number }[] }>(
      `WITH log AS (SELECT global_position AS pos FROM eventstore.events WHERE type = ANY (?))
       SELECT (SELECT count(*) FROM (SELECT pos FROM log EXCEPT ALL SELECT pos FROM read."${projection.name}_applied") d)::int AS missing,
              (SELECT count(*) FROM (SELECT pos FROM read."${projection.name}_applied" EXCEPT ALL SELECT pos FROM log) d)::int AS extra,
              (SELECT value FROM read."${projection.name}_total")::int AS total,
              (SELECT count(*) FROM log)::int AS expected`,
      [[...projection.types]],
    );
    expect({ name: projection.name, ...rows[0] }, JSON.stringify(choices)).toEqual({
      name: projection.name,
      missing: 0,
      extra: 0,
      total: rows[0]!.expected,
      expected: rows[0]!.expected,
    });
    const verified = await verifyProjection(log.db, log.store, projection);
    expect(verified.ok, `${JSON.stringify(verified)} ${JSON.stringify(choices)}`).toBe(true);
  }
}

describe('the projection runner, at random', () => {
  it.each(Array.from({ length: SEEDS }, (_, i) => FROM + i))(
    'seed %i: every projection ends equal to a replay of the log',
    { timeout: 180_000 },
    async (seed) => {
      const log = await openTickLog('runner_fuzz');
      try {
        await fuzz(log, seed);
      } finally {
        await log.close();
      }
    },
  );
});
