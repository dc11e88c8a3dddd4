import { compareLogPositions, type LogPosition } from '@forum/contracts';
import { createPostgresEventStore, type EventStore, type RecordedEvent } from '@forum/eventstore';
import { createKnex, type Knex } from '@forum/platform';
import { createTestDatabase, waitFor } from '@forum/platform/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections } from './index.ts';
import { inBuildSchema, tablesIn } from './runner/build-schema.ts';
import { applyOwn, createReadIndexes, DEFERRED_SETTING, REPLAY_SETTINGS, stageUntil, tablesOf, type Projection } from './runner/projection.ts';
import { forumLog, stepArbitrary, type Step } from './testing/forum-logs.ts';

/**
 * The read models that keep a staged replay beside their live `apply` (a rebuild's way through the
 * log, set-wise in SQL) write their rules twice: this holds the two to the same tables. fast-check
 * draws forums' lives (people posting, voting, commenting, reporting, renaming, erasing their
 * accounts; moderators removing; votes and comments that raced a deletion) and how the builds
 * went through the log; each log is appended through the PostgreSQL event store (so an erasure
 * seals away what came before it) and
 *   - applied live: read as a live build reads it, at the moments the steps say (`read`), in
 *     batches of a drawn size, into one schema;
 *   - rebuilt: staged in ranges of a drawn size up to a drawn point, settled, followed the
 *     ordinary way, and maybe staged and settled again (a rebuild restarted), with its read
 *     indexes and what waits for them built at the end, into another;
 * and every table of the two must hold the same rows (the page anchors, which depend on the
 * batches, must be consistent in both instead).
 *
 * `npm test` makes RUNS runs. A failure prints fast-check's seed and path, and the log it shrank
 * to: `REPLAY_PROPERTY_SEED=<seed> REPLAY_PROPERTY_PATH=<path> npx vitest run projections/src/replay-equals-apply.int.test.ts`
 * runs that case again; `REPLAY_PROPERTY_RUNS=500` tries more.
 */
const RUNS = Number(process.env.REPLAY_PROPERTY_RUNS ?? 20);
const SEED = process.env.REPLAY_PROPERTY_SEED === undefined ? undefined : Number(process.env.REPLAY_PROPERTY_SEED);
const PATH = process.env.REPLAY_PROPERTY_PATH;
/** The runs and the shrinking of a failure stop here: what is found by then is reported (runs that pass take a fraction of it). */
const TIME_LIMIT_MS = Number(process.env.REPLAY_PROPERTY_TIME_LIMIT_MS ?? 120_000);

const staged = allProjections.filter((p) => p.replay);

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
let store: EventStore;
beforeAll(async () => {
  database = await createTestDatabase('replay_equals_apply');
  store = await createPostgresEventStore({ connectionString: database.url, poolSize: 2 });
  db = createKnex(database.url, { max: 3 });
});
afterAll(async () => {
  await store?.close();
  await db?.destroy();
  await database?.drop();
});

/** How the builds went through the log: batch and range sizes, and where a rebuild settled (fractions of the log). */
const planArbitrary = fc.record({
  liveBatch: fc.integer({ min: 1, max: 30 }),
  replayBatch: fc.integer({ min: 1, max: 30 }),
  rangeSize: fc.integer({ min: 1, max: 40 }),
  settledAt: fc.double({ min: 0, max: 1, noNaN: true }),
  restartedAt: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
});
type Plan = typeof planArbitrary extends fc.Arbitrary<infer T> ? T : never;

/**
 * The events after `after` up to `until`, of the projection's types, as its builds read them. The
 * log holds back its newest events while a transaction older than them runs anywhere on the server
 * (it never passes a late commit; other test files share the server): the read waits for them.
 */
async function readFor(projection: Projection, after: LogPosition, until: LogPosition): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  while (compareLogPositions(after, until) < 0) {
    const page = await waitFor(
      () => store.readAll(after, 500, { open: projection.opens ?? projection.types }),
      (read) => read.length > 0,
    );
    events.push(...page.filter((e) => compareLogPositions(e.position, until) <= 0 && projection.types.includes(e.type)));
    after = page.at(-1)!.position;
  }
  return events;
}

/** Applies events in batches of `size`, a transaction each, in the build's schema (`settings`: what the runner sets there first). */
async function applyInBatches(projection: Projection, schema: string, events: readonly RecordedEvent[], size: number, settings: readonly string[] = []) {
  for (let i = 0; i < events.length; i += size) {
    await inBuildSchema(db, schema, async (trx) => {
      for (const setting of settings) await trx.raw(setting);
      await applyOwn(trx, projection, events.slice(i, i + size));
    });
  }
}

/** Every table of the schema but the derived ones, each row as JSON text, sorted. */
async function tablesOfSchema(projection: Projection, schema: string): Promise<Record<string, string[]>> {
  const derived = new Set((projection.derived?.views ?? []).flatMap((view) => tablesOf(projection.exposes[view]!)));
  const dump: Record<string, string[]> = {};
  for (const table of (await tablesIn(db, schema)).filter((t) => !derived.has(t)).sort()) {
    const { rows } = await db.raw<{ rows: { row: string }[] }>('SELECT to_jsonb(t)::text AS row FROM ??.?? t', [schema, table]);
    dump[table] = rows.map((r) => r.row).sort();
  }
  if (projection.derived) expect(await inBuildSchema(db, schema, (trx) => projection.derived!.problems(trx)), `${schema}: page anchors`).toEqual([]);
  return dump;
}

const createBuild = async (projection: Projection, schema: string, indexed: boolean) =>
  inBuildSchema(db, schema, async (trx) => {
    await trx.raw('CREATE SCHEMA ??', [schema]);
    await projection.migrate(trx);
    if (indexed) await createReadIndexes(trx, projection);
  });

/**
 * A rebuild as the runner makes one: its tables without their read indexes; the log staged up to
 * `settledAt` and settled; followed the ordinary way; from `restartedAt` (if drawn, and later)
 * staged and settled again; the read indexes built and the page anchors made afresh at the tail.
 */
async function rebuild(projection: Projection, schema: string, from: LogPosition, head: LogPosition, plan: Plan) {
  await createBuild(projection, schema, false);
  const all = await readFor(projection, from, head);
  const cut = (fraction: number) => Math.floor(fraction * all.length);
  const at = (index: number) => (index === 0 ? from : all[index - 1]!.position);
  const log = store.sql!;
  const replaying = (work: (trx: Knex.Transaction) => Promise<void>) =>
    inBuildSchema(db, schema, async (trx) => {
      await trx.raw(REPLAY_SETTINGS);
      await trx.raw(DEFERRED_SETTING);
      await work(trx);
    });
  const stageAndSettle = async (after: number, until: number) => {
    if (until > after)
      expect(await stageUntil(log, projection, { after: at(after), until: at(until), rangeSize: plan.rangeSize }, replaying)).toEqual(at(until));
    for (const step of projection.replay!.settle) await replaying((trx) => step(trx, log));
  };
  const settled = cut(plan.settledAt);
  const restarted = plan.restartedAt === undefined ? all.length : Math.max(settled, cut(plan.restartedAt));
  await stageAndSettle(0, settled);
  const ordinary = await readFor(projection, at(settled), at(restarted));
  await applyInBatches(projection, schema, ordinary, plan.replayBatch, [REPLAY_SETTINGS, DEFERRED_SETTING]);
  if (restarted < all.length) await stageAndSettle(restarted, all.length);
  await inBuildSchema(db, schema, async (trx) => {
    await createReadIndexes(trx, projection);
    await projection.derived?.rebuild(trx);
  });
}

/**
 * A log with every kind of step, tried first whatever fast-check draws: every type the staged read
 * models read comes up in every `npm test`, not only when the draws happen to bring it (an unlock
 * needs a lock before it: 20 drawn logs, or fewer on a busy machine, may have none).
 */
const EVERY_KIND: Step[] = [
  { kind: 'post', user: 0, title: 0, tags: ['React'] },
  { kind: 'post', user: 1, title: 1, tags: [] },
  { kind: 'vote', user: 1, post: 0, vote: 'up', raced: false },
  { kind: 'comment', user: 1, post: 0, raced: false },
  { kind: 'comment', user: 2, post: 1, raced: false },
  { kind: 'read' },
  { kind: 'report', user: 0, comment: 0, raced: false },
  { kind: 'reportPost', user: 1, post: 0, raced: false },
  { kind: 'editPost', post: 0, byAdmin: false, fold: false, title: 2, tags: ['news'] },
  { kind: 'editComment', comment: 0, byAdmin: false, fold: false },
  { kind: 'profile', user: 0, name: 'Ann B.', photoURL: 'https://photos.test/a.png', v1: false },
  { kind: 'profile', user: 1, name: 'Ben', v1: true },
  ...(['hidePost', 'lock', 'pin', 'hideComment'] as const).map((action) => ({ kind: 'moderate' as const, action, item: 0, reason: 1, undo: true })),
  { kind: 'moderate', action: 'dismissPost', item: 0, reason: 0, undo: false },
  { kind: 'moderate', action: 'dismissComment', item: 0, reason: 0, undo: false },
  { kind: 'read' },
  { kind: 'removeComment', comment: 1 },
  { kind: 'deletePost', post: 1, byAdmin: true },
  { kind: 'post', user: 2, title: 3, tags: ['news'] },
  { kind: 'comment', user: 3, post: 2, raced: false },
  { kind: 'erase', user: 2, content: 'erased' },
  { kind: 'read' },
];

/** What the runs drew, to show the property was tried on what matters. */
const seen = new Map<string, number>();
let runs = 0;

async function liveEqualsRebuilt(steps: readonly Step[], plan: Plan) {
  const run = ++runs;
  const from = await store.head();
  const live = staged.map((projection) => ({ projection, schema: `live_${run}_${projection.name}`, position: from }));
  for (const build of live) await createBuild(build.projection, build.schema, true);
  const read = async () => {
    const head = await store.head();
    for (const build of live) {
      await applyInBatches(build.projection, build.schema, await readFor(build.projection, build.position, head), plan.liveBatch);
      build.position = head;
    }
  };
  for (const entry of forumLog(steps, run)) {
    if (entry === 'read') await read();
    else {
      await store.append(entry.appends);
      for (const { events } of entry.appends) for (const { type } of events) seen.set(type, (seen.get(type) ?? 0) + 1);
    }
  }
  await read();
  const head = await store.head();
  try {
    for (const { projection, schema } of live) {
      const rebuilt = `rebuilt_${run}_${projection.name}`;
      await rebuild(projection, rebuilt, from, head, plan);
      expect(await tablesOfSchema(projection, rebuilt), `${projection.name}: the rebuild's tables (received) against the live build's (expected)`).toEqual(
        await tablesOfSchema(projection, schema),
      );
    }
  } finally {
    for (const projection of staged) await db.raw(`DROP SCHEMA IF EXISTS "live_${run}_${projection.name}", "rebuilt_${run}_${projection.name}" CASCADE`);
  }
}

describe('the read models with a staged replay', () => {
  it(
    `come out of a rebuild with the tables the live build wrote, whatever the log (${RUNS} logs drawn by fast-check)`,
    { timeout: TIME_LIMIT_MS + 60_000 },
    async () => {
      expect(staged.map((p) => p.name).sort()).toEqual(['comments', 'posts']);
      const details = await fc.check(
        fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 80, size: 'max' }), planArbitrary, liveEqualsRebuilt),
        {
          numRuns: RUNS,
          examples: [[EVERY_KIND, { liveBatch: 3, replayBatch: 2, rangeSize: 4, settledAt: 0.5, restartedAt: 0.8 }]],
          ...(SEED !== undefined && { seed: SEED }),
          ...(PATH !== undefined && { path: PATH, endOnFailure: true }),
          interruptAfterTimeLimit: TIME_LIMIT_MS,
        },
      );
      // a failure's report names its seed and path, and the smallest log it shrank to in the time
      if (details.failed) {
        const error = details.errorInstance instanceof Error ? details.errorInstance : new Error(String(details.errorInstance));
        error.message = `${fc.defaultReportMessage(details)}\n${error.message}`;
        throw error;
      }
      if (details.interrupted) console.warn(`replay-equals-apply: ${details.numRuns} of ${RUNS} runs in ${TIME_LIMIT_MS / 1000} s (seed ${details.seed})`);
      // every type they read came up, erasures and old profile updates among them
      if (SEED === undefined) {
        for (const type of new Set(staged.flatMap((p) => p.types))) expect(seen.get(type) ?? 0, type).toBeGreaterThan(0);
      }
    },
  );
});
