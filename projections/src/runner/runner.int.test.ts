import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@forum/platform/testing';
import { createLogger } from '@forum/platform';
import { describe, expect, it } from 'vitest';
import { readCheckpoint, requestRebuild } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import { createProjectionRunner } from './runner.ts';
import { projectionStatus } from './status.ts';
import { countingProjection } from './testing/counting-projection.ts';
import { tick, useTickLog } from './testing/ticks.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const logger = createLogger('test', process.env.TEST_LOG ?? 'silent');

const log = useTickLog('runner');

async function appendTicks(streams: number, perStream: number) {
  await Promise.all(
    Array.from({ length: streams }, async (_, s) => {
      const streamId = `tick-${s}-${Math.random().toString(36).slice(2)}`;
      for (let i = 0; i < perStream; i += 10) {
        await log.store.append([{ streamId, expectedVersion: i === 0 ? 'no_stream' : i, events: Array.from({ length: 10 }, (_, k) => tick(i + k)) }]);
      }
    }),
  );
}

const appliedStats = async (schema: string) =>
  (
    await log.db.raw<{ rows: { rows: number; distinct_positions: number; total: number }[] }>(
      `SELECT (SELECT count(*) FROM "${schema}".applied)::int AS rows,
              (SELECT count(DISTINCT pos) FROM "${schema}".applied)::int AS distinct_positions,
              (SELECT value FROM "${schema}".total)::int AS total`,
    )
  ).rows[0]!;

describe('projection runner', () => {
  it('resumes after kill -9 in the middle of a batch with nothing lost and nothing applied twice', { timeout: 120_000 }, async () => {
    await appendTicks(4, 500); // 2,000 events
    const all = await waitFor(
      () => log.store.readAll({ transactionId: 0n, globalPosition: 0n }, 10_000),
      (events) => events.length === 2000,
    );
    const crashAt = all[1234]!.position.globalPosition;

    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'testing/crash-fixture.ts')], {
      env: { ...process.env, DATABASE_URL: log.url, CRASH_AT: crashAt.toString() },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    expect(exit, stderr).toEqual({ code: null, signal: 'SIGKILL' });

    // The killed batch left nothing behind: what is applied is exactly what the checkpoint covers
    const afterCrash = await readCheckpoint(log.db, { name: 'counting', version: 1, build: 1 });
    const appliedBefore = await appliedStats('counting_v1');
    const coveredBefore = all.findIndex((e) => e.position.globalPosition === afterCrash!.position.globalPosition) + 1;
    expect(coveredBefore).toBeGreaterThan(1000);
    expect(coveredBefore).toBeLessThan(1235);
    expect(appliedBefore).toEqual({ rows: coveredBefore, distinct_positions: coveredBefore, total: coveredBefore });

    const runner = createProjectionRunner({ db: log.db, connectionString: log.url, store: log.store, logger, projections: [countingProjection()] });
    await runner.start();
    try {
      const stats = await waitFor(
        () => appliedStats('counting_v1'),
        (s) => s.rows >= 2000,
      );
      expect(stats).toEqual({ rows: 2000, distinct_positions: 2000, total: 2000 });
      const perStream = await log.db.raw<{ rows: { ordered: boolean }[] }>(
        `SELECT bool_and(ok) AS ordered FROM (
           SELECT stream_version = row_number() OVER (PARTITION BY stream_id ORDER BY pos) AS ok FROM counting_v1.applied) t`,
      );
      expect(perStream.rows[0]!.ordered).toBe(true);
    } finally {
      await runner.stop();
    }
  });

  it('lets one runner own a projection while a second stands by, and hands over when the first stops', { timeout: 60_000 }, async () => {
    const projection = () => countingProjection({ name: 'standby' });
    const first = createProjectionRunner({ db: log.db, connectionString: log.url, store: log.store, logger, projections: [projection()], standbyRetryMs: 100 });
    const second = createProjectionRunner({
      db: log.db,
      connectionString: log.url,
      store: log.store,
      logger,
      projections: [projection()],
      standbyRetryMs: 100,
    });
    await first.start();
    await second.start();
    expect(first.workers()[0]!.state).toBe('running');
    expect(second.workers()[0]!.state).toBe('standby');

    const before = await log.eventCount();
    await waitFor(
      () => appliedStats('standby_v1'),
      (s) => s.rows === before,
    );
    await first.stop();
    await appendTicks(2, 100);
    try {
      const stats = await waitFor(
        () => appliedStats('standby_v1'),
        (s) => s.rows >= before + 200,
      );
      expect(stats).toEqual({ rows: before + 200, distinct_positions: before + 200, total: before + 200 });
      expect(second.workers()[0]!.state).toBe('running');
    } finally {
      await second.stop();
    }
    // stopped runners leave no session behind (the lock sessions release their builds)
    const sessions = await log.db.raw<{ rows: { n: number }[] }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name IN ('forum-projection-locks', 'forum-projection-control')`,
    );
    expect(sessions.rows[0]!.n).toBe(0);
  });

  it('picks up a build requested while its LISTEN session was lost, long before its poll, and keeps its locks meanwhile', { timeout: 60_000 }, async () => {
    const projection = countingProjection({ name: 'woken' });
    // the poll looks for builds a minute after start: a build found within 20 s was heard of
    const runner = createProjectionRunner({
      db: log.db,
      connectionString: log.url,
      store: log.store,
      logger,
      projections: [projection],
      standbyRetryMs: 60_000,
    });
    await runner.start();
    const sessionsOf = async (applicationName: string) =>
      (
        await log.db.raw<{ rows: { pid: number }[] }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?', [
          applicationName,
        ])
      ).rows.map((row) => row.pid);
    try {
      const lockSessions = await sessionsOf('forum-projection-locks');
      expect(lockSessions).toHaveLength(1);
      // waits (up to 10 s) until the backend is gone, so the request below is sent while no session listens
      const ended = await log.db.raw<{ rows: { ended: boolean }[] }>(
        `SELECT pg_terminate_backend(pid, 10000) AS ended FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forum-projection-control'`,
      );
      expect(ended.rows).toEqual([{ ended: true }]);
      await requestRebuild(log.db, projection, 'test');
      const workers = await waitFor(
        () => Promise.resolve(runner.workers()),
        (workers) => workers.some((w) => w.name === 'woken' && w.build === 2),
        20_000,
      );
      // losing the LISTEN session released no lock: the live build's worker went on, until the
      // new build (on a short log, at once) switched in and retired it
      expect(await sessionsOf('forum-projection-locks')).toEqual(lockSessions);
      const live = workers.find((w) => w.build === 1);
      if (live) expect(live.state).toBe('running');
      else expect(await readCheckpoint(log.db, { name: 'woken', version: 1, build: 1 })).toMatchObject({ state: 'retired', error: null });
    } finally {
      await runner.stop();
    }
  });

  it('halts only the projection whose handler throws, at the failing event, and resumes it after a restart', { timeout: 60_000 }, async () => {
    let broken = true;
    const fragile: Projection = {
      ...countingProjection({ name: 'fragile', types: ['Tick', 'Poison'] }),
      async apply(trx, events) {
        for (const event of events) {
          if (broken && event.type === 'Poison') throw new Error('cannot read this event');
          await trx.raw('INSERT INTO applied (pos, stream_id, stream_version) VALUES (?, ?, ?)', [
            event.position.globalPosition.toString(),
            event.streamId,
            event.streamVersion,
          ]);
          await trx.raw('UPDATE total SET value = value + 1 WHERE id = 1');
        }
      },
    };
    const healthy = countingProjection({ name: 'healthy', types: ['Tick', 'Poison'] });
    const runner = createProjectionRunner({ db: log.db, connectionString: log.url, store: log.store, logger, projections: [fragile, healthy] });
    await runner.start();
    const poison = await log.store.append([{ streamId: 'poison-1', expectedVersion: 'no_stream', events: [{ ...tick(0), type: 'Poison' }] }]);
    await log.store.append([{ streamId: 'after-poison', expectedVersion: 'no_stream', events: [tick(1)] }]);
    const total = await log.eventCount();

    const halted = await waitFor(
      () => projectionStatus(log.db),
      (all) => all.find((p) => p.name === 'fragile')?.state === 'halted',
    );
    const fragileStatus = halted.find((p) => p.name === 'fragile')!;
    expect(fragileStatus.failedPosition).toBe(`${poison.lastPosition.transactionId}.${poison.lastPosition.globalPosition}`);
    expect(fragileStatus.error).toContain('cannot read this event');
    expect(runner.workers().find((w) => w.name === 'fragile')!.state).toBe('halted');
    // the other projection goes on past the poison event
    await waitFor(
      () => appliedStats('healthy_v1'),
      (s) => s.rows === total,
    );
    // the broken one applied everything before the poison event and nothing after
    expect((await appliedStats('fragile_v1')).rows).toBe(total - 2);
    await runner.stop();

    broken = false;
    const restarted = createProjectionRunner({ db: log.db, connectionString: log.url, store: log.store, logger, projections: [fragile] });
    await restarted.start();
    try {
      const stats = await waitFor(
        () => appliedStats('fragile_v1'),
        (s) => s.rows === total,
      );
      expect(stats).toEqual({ rows: total, distinct_positions: total, total });
      expect((await projectionStatus(log.db)).find((p) => p.name === 'fragile')).toMatchObject({ state: 'live', error: null, lag: 0 });
    } finally {
      await restarted.stop();
    }
  });

  it(
    'does not halt when its database cannot write (a full disk): it tries again until the write succeeds, and applies each event once',
    { timeout: 60_000 },
    async () => {
      let diskFull = true;
      const refusals: number[] = [];
      const counting = countingProjection({ name: 'full_disk', types: ['Tick', 'Poison'] });
      const stalled: Projection = {
        ...counting,
        async apply(trx, events) {
          // PostgreSQL's answer when a table's file cannot grow
          if (diskFull) {
            refusals.push(Date.now());
            throw Object.assign(new Error('could not extend file "base/16384/16535": No space left on device'), { code: '53100', severity: 'ERROR' });
          }
          await counting.apply(trx, events);
        },
      };
      const runner = createProjectionRunner({ db: log.db, connectionString: log.url, store: log.store, logger, projections: [stalled] });
      await runner.start();
      try {
        await log.store.append([{ streamId: `full-disk-${Date.now()}`, expectedVersion: 'no_stream', events: [tick(0)] }]);
        const total = await log.eventCount();
        // tried again, one event at a time too, without halting
        await waitFor(
          () => refusals.length,
          (n) => n >= 3,
        );
        expect((await projectionStatus(log.db)).find((p) => p.name === 'full_disk')).toMatchObject({ state: 'live', error: null });
        expect(runner.workers().find((w) => w.name === 'full_disk')!.state).not.toBe('halted');

        diskFull = false;
        const stats = await waitFor(
          () => appliedStats('full_disk_v1'),
          (s) => s.rows === total,
        );
        expect(stats).toEqual({ rows: total, distinct_positions: total, total });
        expect((await projectionStatus(log.db)).find((p) => p.name === 'full_disk')).toMatchObject({ state: 'live', error: null, lag: 0 });
      } finally {
        await runner.stop();
      }
    },
  );

  it('moves a live checkpoint over events of types it does not read without applying them, and applies its own', { timeout: 60_000 }, async () => {
    const batches: string[][] = [];
    const picky: Projection = { ...countingProjection({ name: 'picky', types: ['Picked'] }) };
    const counted = picky.apply;
    picky.apply = async (trx, events) => {
      batches.push(events.map((e) => e.type));
      await counted(
        trx,
        events.filter((e) => e.type === 'Picked'),
      );
    };
    const runner = createProjectionRunner({ db: log.db, connectionString: log.url, store: log.store, logger, projections: [picky] });
    await runner.start();
    try {
      await waitFor(
        () => projectionStatus(log.db),
        (all) => all.find((p) => p.name === 'picky')?.lag === 0,
      );
      batches.length = 0;
      const stream = `passing-${Date.now()}`;
      await log.store.append([{ streamId: stream, expectedVersion: 'no_stream', events: [tick(0), tick(1)] }]);
      await waitFor(
        () => projectionStatus(log.db),
        (all) => all.find((p) => p.name === 'picky')?.lag === 0,
      );
      const head = await log.store.head();
      expect((await readCheckpoint(log.db, { name: 'picky', version: 1, build: 1 }))!.position).toEqual(head);
      expect(batches).toEqual([]);
      await log.store.append([{ streamId: stream, expectedVersion: 2, events: [tick(2), { ...tick(3), type: 'Picked' }] }]);
      await waitFor(
        () => appliedStats('picky_v1'),
        (s) => s.rows === 1,
      );
      expect(batches.flat()).toContain('Picked');
      expect((await readCheckpoint(log.db, { name: 'picky', version: 1, build: 1 }))!.position).toEqual(await log.store.head());
    } finally {
      await runner.stop();
    }
  });

  it(
    'shows no lag once a build has applied the last event in log order, though a transaction that began earlier wrote higher positions',
    { timeout: 60_000 },
    async () => {
      const runner = createProjectionRunner({
        db: log.db,
        connectionString: log.url,
        store: log.store,
        logger,
        projections: [countingProjection({ name: 'interleaved' })],
      });
      await runner.start();
      // the earlier transaction takes its id, a later one appends and commits, then the earlier one writes
      await log.db.transaction(async (earlier) => {
        await earlier.raw('SELECT pg_current_xact_id()');
        await log.store.append([{ streamId: `later-${Date.now()}`, expectedVersion: 'no_stream', events: [tick(0), tick(1)] }]);
        await earlier.raw(
          `INSERT INTO eventstore.events (stream_id, stream_version, type, data, metadata)
         SELECT 'earlier-' || ?, v, 'Tick', '{"i":0}', '{"actorId":"test","correlationId":"c","causationId":null,"requestId":null,"schemaVersion":1}' FROM generate_series(1, 5) v`,
          [Date.now()],
        );
      });
      const total = (await log.db.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM eventstore.events WHERE type = 'Tick'`)).rows[0]!.n;
      try {
        await waitFor(
          () => appliedStats('interleaved_v1'),
          (s) => s.rows === total,
        );
        const status = await waitFor(
          () => projectionStatus(log.db),
          (all) => all.some((p) => p.name === 'interleaved' && p.lag === 0),
          3000,
        );
        expect(status.find((p) => p.name === 'interleaved')).toMatchObject({ state: 'live', lag: 0 });
        // the log's tally up to the checkpoint counts the earlier transaction's events, though their positions are higher
        const checkpoint = (await readCheckpoint(log.db, { name: 'interleaved', version: 1, build: 1 }))!;
        const { rows } = await log.db.raw<{ rows: { positions: string }[] }>(
          `SELECT sum(global_position)::text AS positions FROM eventstore.events WHERE type = 'Tick'`,
        );
        expect(await log.store.tally!(['Tick'], checkpoint.position)).toEqual({ events: BigInt(total), positions: BigInt(rows[0]!.positions) });
        expect(checkpoint.applied).toEqual({ events: BigInt(total), positions: BigInt(rows[0]!.positions) });
      } finally {
        await runner.stop();
      }
    },
  );

  it(
    'tells onCheckpoint each checkpoint a live build commits, at once and in order, as its schema, position and count of applied events',
    { timeout: 60_000 },
    async () => {
      const heard: string[] = [];
      const runner = createProjectionRunner({
        db: log.db,
        connectionString: log.url,
        store: log.store,
        logger,
        projections: [countingProjection({ name: 'heard' })],
        onCheckpoint: (notification) => heard.push(notification),
      });
      await runner.start();
      try {
        await appendTicks(3, 30);
        const total = (await log.db.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM eventstore.events WHERE type = 'Tick'`)).rows[0]!.n;
        await waitFor(
          () => appliedStats('heard_v1'),
          (s) => s.rows === total,
        );
        const checkpoint = (await readCheckpoint(log.db, { name: 'heard', version: 1, build: 1 }))!;
        await waitFor(
          () => Promise.resolve(heard.at(-1)),
          (last) => last === `heard_v1:${checkpoint.position.transactionId}.${checkpoint.position.globalPosition}:${checkpoint.applied!.events}`,
          3000,
        );
        const positions = heard.map((n) => {
          const [, tx, pos, applied] = /^heard_v1:(\d+)\.(\d+):(\d+)$/.exec(n)!;
          return [BigInt(tx!), BigInt(pos!), BigInt(applied!)] as const;
        });
        for (let i = 1; i < positions.length; i++) {
          const [tx0, pos0, applied0] = positions[i - 1]!;
          const [tx1, pos1, applied1] = positions[i]!;
          expect(tx1 > tx0 || (tx1 === tx0 && pos1 > pos0)).toBe(true);
          expect(applied1).toBeGreaterThanOrEqual(applied0);
        }
      } finally {
        await runner.stop();
      }
    },
  );
});
