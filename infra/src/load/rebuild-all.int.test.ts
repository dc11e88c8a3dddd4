import { eventDefinitions } from '@forum/contracts';
import { createPostgresEventStore, type EventStore } from '@forum/eventstore';
import { allProjections, createProjectionRunner, migrateCheckpoints, projectionStatus, type ProjectionRunner } from '@forum/projections';
import { runForumctl } from '../ops/forumctl.ts';
import { createKnex, createLogger, type Knex } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, waitFor } from '@forum/platform/testing';
import { loadSyntheticLog } from './synthetic-log.ts';

/**
 * What an operator does (issue 15): `forumctl rebuild --all`, then `forumctl verify`, on a log
 * with every event type (the synthetic log's, its authors' and admins' edits among them), over and over, with the forum's projection runner running and stopped.
 * Every projection must come out equal to a replay every time. `REBUILD_ALL_RUNS` sets how
 * many times (4 in `npm test`).
 */
const RUNS = Number(process.env.REBUILD_ALL_RUNS ?? 4);
const logger = createLogger('test', process.env.TEST_LOG ?? 'silent');

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
let store: EventStore;
let byType: Record<string, number>;

beforeAll(async () => {
  database = await createTestDatabase('rebuild_all');
  // a seed whose 6,000 events hold every event type (the test's first line says which are missing
  // when a change to the generator's draws leaves one out: then pick another seed)
  const synthetic = await loadSyntheticLog(database.url, { events: 6_000, seed: 5 });
  db = createKnex(database.url, { max: 4 });
  store = await createPostgresEventStore({ connectionString: database.url, poolSize: 2 });
  byType = synthetic.byType;
  await migrateCheckpoints(db);
}, 120_000);
afterAll(async () => {
  await store?.close();
  await db?.destroy();
  await database?.drop();
});

async function ctl(args: string[]) {
  let out = '';
  let err = '';
  const code = await runForumctl(args, database.url, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** The forum's own runner, following the log with every projection. */
async function forumRunner(): Promise<ProjectionRunner> {
  const runner = createProjectionRunner({ db, connectionString: database.url, store, logger, projections: allProjections, standbyRetryMs: 200 });
  await runner.start();
  await waitFor(
    () => projectionStatus(db),
    (all) => allProjections.every((p) => all.some((s) => s.name === p.name && s.role === 'live' && s.state === 'live' && s.lag === 0)),
    60_000,
  );
  return runner;
}

describe('forumctl rebuild --all', () => {
  it(
    'rebuilds every projection, on a log with every event type, equal to a replay every time, with the forum running or stopped',
    { timeout: 60_000 + RUNS * 45_000 },
    async () => {
      expect(Object.keys(eventDefinitions).filter((type) => !byType[type])).toEqual([]);
      let forum: ProjectionRunner | null = await forumRunner();
      try {
        for (let run = 1; run <= RUNS; run++) {
          // every other run with the forum stopped
          if (run % 2 === 0 && forum) {
            await forum.stop();
            forum = null;
          } else forum ??= await forumRunner();
          const rebuilt = await ctl(['rebuild', '--all']);
          expect(rebuilt.code, `run ${run}: ${rebuilt.err}`).toBe(0);
          expect(rebuilt.out).toMatch(/reads switched to the new builds/);
          // the rebuild compared what it switched in with a replay: one line a projection
          for (const projection of allProjections) expect(rebuilt.out, `run ${run}`).toMatch(new RegExp(`^${projection.name}: ok \\(`, 'm'));
          const verified = await ctl(['verify']);
          expect(verified.code, `run ${run}: ${verified.err}`).toBe(0);
          const status = await projectionStatus(db);
          expect(
            status.filter((s) => s.error !== null || s.role !== 'live'),
            `run ${run}`,
          ).toEqual([]);
          expect(new Set(status.map((s) => s.build)).size, `run ${run}: every projection has its build ${run + 1}`).toBe(1);
        }
      } finally {
        await forum?.stop();
      }
      // --no-verify switches without comparing
      const quick = await ctl(['rebuild', 'tags', 'users', '--no-verify']);
      expect(quick.code, quick.err).toBe(0);
      expect(quick.out).not.toMatch(/: ok \(/);
    },
  );
});
