import { compareLogPositions, positionToken, type LogPosition } from '@forum/contracts';
import type { LogTally } from '@forum/eventstore';
import { CheckpointMoved, isTransient } from './build-errors.ts';
import { inBuildSchema, tablesIn } from './build-schema.ts';
import { commitTo, NOTHING } from './checkpoint-commit.ts';
import { buildLabel } from './checkpoints.ts';
import { DEFERRED_SETTING, REPLAY_SETTINGS, stageRange } from './projection.ts';
import type { BuildProgress, RunnerContext } from './runner-context.ts';
import { trySwitch } from './switch.ts';

/**
 * A build stages the log range by range, each with its checkpoint in one transaction, up to the
 * log's tail as it was found (or an event only the ordinary way reads), then settles; the ordinary way goes on
 * from there. A range that fails to stage (bad data in an event) is left to the ordinary way
 * too, which finds the event and halts on it.
 */
export async function stage(context: RunnerContext, build: BuildProgress) {
  const { db } = context;
  const started = performance.now();
  let events = 0;
  // The staged stretch is counted once, from the log, when staging ends (counting each range's
  // relation cost a tenth of the staging); where it began is kept with the checkpoint until
  // then, so a build restarted part way still counts it all
  const stagedFrom = build.stagedFrom ?? build.position!;
  await db.raw(`UPDATE projections.checkpoints SET staged_from = ? WHERE name = ? AND version = ? AND build = ? AND staged_from IS NULL`, [
    positionToken(stagedFrom),
    build.key.name,
    build.key.version,
    build.key.build,
  ]);
  while (!context.stopped) {
    const next = await context.stagedRanges.next(context.sqlLog!, build.position!);
    if (!next) break;
    // ranges follow one another with nothing between them: the count from the log holds
    if (compareLogPositions(next.range.after, build.position!) !== 0) {
      throw new Error(`a staged range starts at ${positionToken(next.range.after)}, not at the build's ${positionToken(build.position!)}`);
    }
    try {
      await commitTo(context, build, next.range.upTo, (trx) => stageRange(trx, build.projection, context.sqlLog!, next.range));
    } catch (error) {
      if (error instanceof CheckpointMoved || isTransient(error)) throw error;
      build.log.warn({ err: error, after: positionToken(next.range.after) }, 'a range of the log did not stage: the ordinary way goes on from there');
      break;
    }
    events += next.events;
    // a short range reached the tail: the ordinary way follows whatever the log gains meanwhile
    if (next.events < context.settings.stageRangeSize) break;
  }
  if (context.stopped) return;
  await countStaged(context, build, stagedFrom);
  const staged = performance.now();
  const stepsMs = await Promise.all(
    build.projection.replay!.settle.map((step) =>
      inBuildSchema(db, build.schema, async (trx) => {
        await trx.raw(REPLAY_SETTINGS);
        await trx.raw(DEFERRED_SETTING);
        await step(trx, context.sqlLog!);
        return Math.round(performance.now() - staged);
      }),
    ),
  );
  // what comes after (the log's new events until the switch) is applied the ordinary way
  build.staging = false;
  build.log.info({ events, stagedMs: Math.round(staged - started), settledMs: Math.round(performance.now() - staged), stepsMs }, 'replay staged and settled');
}

/** Counts the staged stretch, from `from` to the build's position, in `applied` (see `stage`). */
async function countStaged(context: RunnerContext, build: BuildProgress, from: LogPosition) {
  const to = build.position!;
  const tally = context.store.tally && compareLogPositions(from, to) < 0 ? await stretchTally(context, build, from, to) : NOTHING;
  const { rowCount } = await context.db.raw<{ rowCount: number }>(
    `UPDATE projections.checkpoints SET staged_from = NULL, applied_events = applied_events + ?::bigint, applied_positions = applied_positions + ?::numeric
     WHERE name = ? AND version = ? AND build = ? AND staged_from = ? AND tx = ?::text::xid8 AND pos = ?`,
    [
      tally.events.toString(),
      tally.positions.toString(),
      build.key.name,
      build.key.version,
      build.key.build,
      positionToken(from),
      to.transactionId.toString(),
      to.globalPosition.toString(),
    ],
  );
  if (rowCount !== 1) throw new CheckpointMoved(`checkpoint of ${buildLabel(build.key)} moved or retired under us`);
}

async function stretchTally(context: RunnerContext, build: BuildProgress, from: LogPosition, to: LogPosition): Promise<LogTally> {
  const { store } = context;
  const [end, start] = await Promise.all([store.tally!(build.projection.types, to), store.tally!(build.projection.types, from)]);
  return { events: end.events - start.events, positions: end.positions - start.positions };
}

/**
 * At the tail of a replay: the read indexes are built and the tables
 * analysed, then a build takes the live one's place, and a live build goes
 * back to following the head in small batches.
 */
export async function finishReplay(context: RunnerContext, build: BuildProgress) {
  if (!build.replaying || context.stopped) return;
  if (build.tailPending) {
    const started = performance.now();
    const run = (statement: string, bindings: readonly string[] = []) => inBuildSchema(context.db, build.schema, (trx) => trx.raw(statement, bindings));
    const indexes = build.projection.indexes ?? {};
    let indexedMs = 0;
    // Each table's indexes, then its statistics (tables just filled have none until autovacuum
    // comes by, a minute or more: the planner would guess, and might scan a whole table for one
    // post's comments), each statement in a transaction of its own: all tables at once, on the
    // cores the replay leaves. A table's analysis waits only for its own indexes (it cannot run
    // beside them: their locks conflict).
    const tables = new Set([...(await tablesIn(context.db, build.schema)), ...Object.keys(indexes)]);
    await Promise.all(
      [...tables].map(async (table) => {
        await Promise.all((indexes[table] ?? []).map((statement) => run(statement)));
        indexedMs = Math.max(indexedMs, Math.round(performance.now() - started));
        await run('ANALYZE ??', [table]);
      }),
    );
    const { derived } = build.projection;
    if (derived) await inBuildSchema(context.db, build.schema, (trx) => derived.rebuild(trx));
    build.tailPending = false;
    build.log.info({ ms: Math.round(performance.now() - started), indexedMs }, 'read indexes built and tables analysed after the replay');
  }
  if (build.role === 'building') await trySwitch(context, build);
  else void build.subscription?.stop();
}
