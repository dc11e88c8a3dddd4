import type { EventStore } from '@forum/eventstore';
import { waitFor } from '@forum/platform/testing';
import { createLogger } from '@forum/platform';
import { describe, expect, it } from 'vitest';
import { verifyProjection } from '../operations/verify.ts';
import { requestRebuild } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import { createProjectionRunner, type RunnerOptions } from './runner.ts';
import { SharedLogReader, type LogBatch } from './shared-log.ts';
import { projectionStatus } from './status.ts';
import { countingProjection } from './testing/counting-projection.ts';
import { tick, useTickLog } from './testing/ticks.ts';

const logger = createLogger('test', process.env.TEST_LOG ?? 'silent');
const log = useTickLog('joining');

const counting = (name: string, types: readonly string[]) =>
  countingProjection({ name, types, exposes: { [`${name}_applied`]: 'applied', [`${name}_total`]: 'total' } });

const runnerFor = (projections: readonly Projection[], options: Partial<RunnerOptions> = {}) =>
  createProjectionRunner({ db: log.db, connectionString: log.url, store: log.store, logger, projections, ...options });

/** `count` events on a few streams, their types taking turns through `types`. */
async function appendMixed(count: number, types: readonly string[]) {
  const streamId = `mixed-${Math.random().toString(36).slice(2)}`;
  for (let i = 0; i < count; i += 100) {
    const events = Array.from({ length: Math.min(100, count - i) }, (_, k) => tick(i + k, types[(i + k) % types.length]));
    await log.store.append([{ streamId, expectedVersion: i === 0 ? 'no_stream' : i, events }]);
  }
}

/** The log's events of `types`, by count. */
const eventsOf = async (types: readonly string[]) =>
  (await log.db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM eventstore.events WHERE type = ANY (?)', [[...types]])).rows[0]!.n;

/** The store, whose reads of the log (`readAll` and the SQL log's `read`) wait `ms` the first time. */
function slowFirstRead(store: EventStore, ms: number): EventStore {
  let first = true;
  const slow = async <T>(read: () => Promise<T>): Promise<T> => {
    if (first) {
      first = false;
      await new Promise((resolve) => setTimeout(resolve, ms));
    }
    return read();
  };
  const sql = store.sql!;
  return {
    ...store,
    readAll: (...args) => slow(() => store.readAll(...args)),
    sql: { ...sql, read: (...args) => slow(() => sql.read(...args)) },
  };
}

describe('builds joining a shared read of the log', () => {
  // The bug of issue 15: a build that joined while the reader's read was in flight was handed a batch
  // read without its types (or from past its position), its checkpoint moved over the batch anyway,
  // and it switched in with empty or partial tables.
  it(
    'ordinary builds of different event types that join while the first read is slow each replay every event of their types',
    { timeout: 120_000 },
    async () => {
      const projections = [counting('join_tick', ['Tick']), counting('join_tock', ['Tock']), counting('join_both', ['Tack', 'Tick'])];
      await appendMixed(3000, ['Tick', 'Tock', 'Tack']);
      const total = await log.eventCount();

      // the live builds, followed to the head, then stopped (as the forum would be)
      const live = runnerFor(projections);
      await live.start();
      await waitFor(
        () => projectionStatus(log.db),
        (all) => projections.every((p) => all.some((s) => s.name === p.name && s.role === 'live' && s.lag === 0)),
      );
      await live.stop();

      for (const projection of projections) await requestRebuild(log.db, projection, 'operator:test');
      const builder = runnerFor(projections, { store: slowFirstRead(log.store, 500), only: 'building', buildBatchSize: 1000 });
      await builder.start();
      try {
        const status = await waitFor(
          () => projectionStatus(log.db),
          (all) => projections.every((p) => all.some((s) => s.name === p.name && s.build === 2 && (s.role === 'live' || s.state === 'halted'))),
        );
        for (const projection of projections) {
          expect(status.filter((s) => s.name === projection.name).map((s) => [s.build, s.state, s.error])).toEqual([[2, 'live', null]]);
        }
      } finally {
        await builder.stop();
      }
      expect(await log.eventCount()).toBe(total);
      for (const projection of projections) {
        const verified = await verifyProjection(log.db, log.store, projection);
        expect(verified, `${projection.name}: ${JSON.stringify(verified)}`).toMatchObject({ ok: true });
        const { rows } = await log.db.raw<{ rows: { n: number; total: number }[] }>(
          `SELECT (SELECT count(DISTINCT pos) FROM read."${projection.name}_applied")::int AS n, (SELECT value FROM read."${projection.name}_total")::int AS total`,
        );
        const expected = await eventsOf(projection.types);
        expect(rows[0], projection.name).toEqual({ n: expected, total: expected });
      }
    },
  );
});

describe('a build waiting ahead of the shared read (one that staged up to the tail, as a rebuild of posts does)', () => {
  it('is not read for: the stretches behind it are read only with the types of the builds they reach, and each build gets every event of its types', async () => {
    const from = await log.store.head();
    await appendMixed(400, ['Ahead', 'Behind']);
    const head = await log.store.head();
    const sql = log.store.sql!;
    // readers see only transactions older than the cluster's oldest running one (another test file's
    // too): until the appends are readable, `behind` would be caught up at once with nothing read
    await waitFor(
      () => sql.nextRange(from, { limit: 1000, types: ['Ahead', 'Behind'] }),
      (next) => next?.range.upTo.globalPosition === head.globalPosition,
    );
    const typesRead: string[][] = [];
    const reader = new SharedLogReader({ ...log.store, sql: { ...sql, read: (range, types) => (typesRead.push([...types]), sql.read(range, types)) } }, 10);
    const taken = { ahead: 0, behind: 0 };
    const taking =
      (consumer: keyof typeof taken) =>
      ({ events }: LogBatch) => {
        taken[consumer] += events.length;
        return Promise.resolve();
      };
    let caughtUp!: () => void;
    const behindDone = new Promise<void>((resolve) => (caughtUp = resolve));
    const ahead = reader.subscribe({ after: head, types: ['Ahead'], onBatch: taking('ahead') });
    const behind = reader.subscribe({
      after: from,
      types: ['Behind'],
      onBatch: taking('behind'),
      onCaughtUp: () => caughtUp(),
    });
    await behindDone;
    await Promise.all([ahead.stop(), behind.stop()]);
    expect(taken).toEqual({ ahead: 0, behind: 200 });
    expect(typesRead.length).toBeGreaterThan(1);
    expect(new Set(typesRead.map((types) => types.join()))).toEqual(new Set(['Behind']));
  });
});
