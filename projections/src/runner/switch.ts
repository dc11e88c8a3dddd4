import { compareLogPositions, positionToken } from '@forum/contracts';
import { dropBuild, indexesUsable, publishViews } from './build-schema.ts';
import { buildLabel, discardBuild, liveBuild, notifyRunners, readCheckpoint, switchToBuild } from './checkpoints.ts';
import { CHECKPOINTS_CHANNEL } from './projection.ts';
import type { BuildProgress, RunnerContext } from './runner-context.ts';

/** A build that has caught up with the live one takes its place. */
export async function trySwitch(context: RunnerContext, build: BuildProgress) {
  const { db } = context;
  if (build.role !== 'building' || context.stopped) return;
  if (!(await indexesUsable(db, build.schema))) {
    if (!build.waitedForIndexes) build.log.info('waiting for transactions older than its indexes before it switches in');
    build.waitedForIndexes = true;
    return;
  }
  // Behind the live build it cannot switch yet (the switch checks again): no use counting the log
  const live = await liveBuild(db, build.key.name);
  if (live && compareLogPositions(build.position!, live.position) < 0) return;
  // Counted before the switch's transaction, which would hold back every reader of the log
  // meanwhile; the build does not move until this turn ends
  const problem = await unaccounted(context, build);
  if (problem !== null) {
    build.log.error({ problem }, 'build not switched in: its replay does not account for the log');
    await discardBuild(db, build.key, problem, build.position!);
    // its run loop finds it discarded and halts
    void build.subscription?.stop();
    return;
  }
  const outcome = await switchToBuild(db, build.key, (trx) => publishViews(trx, build.projection, build.schema));
  if (!outcome.switched) return;
  build.role = 'live';
  build.log.info(
    { position: build.position && positionToken(build.position), retired: outcome.retired && buildLabel(outcome.retired) },
    'build switched in: reads now come from it',
  );
  context.onCheckpoint?.(`switched:${build.key.name}`);
  await db.raw('SELECT pg_notify(?, ?)', [CHECKPOINTS_CHANNEL, `switched:${build.key.name}`]);
  await notifyRunners(db, `switched:${build.key.name}`);
  // From now on this build follows the log as the live one does: small batches, durable commits
  build.replaying = false;
  void build.subscription?.stop();
  if (outcome.retired) await dropBuild(db, outcome.retired, build.log);
}

/**
 * Whether the build was handed every event of its types up to its checkpoint, once: what it
 * counted as it applied them against the log's own count (and sum of positions) up to there.
 * Null when it was, or cannot be checked (an event store that cannot count, a build from
 * before builds counted).
 */
async function unaccounted(context: RunnerContext, build: BuildProgress): Promise<string | null> {
  const { store } = context;
  const mine = await readCheckpoint(context.db, build.key);
  if (!mine) return null; // retired meanwhile: the switch finds out
  if (!store.tally || !mine.applied) {
    build.log.warn('the event store cannot count its log, or the build predates counting: switching in without checking its replay');
    return null;
  }
  const types = build.projection.types;
  const log = await store.tally(types, mine.position);
  if (log.events === mine.applied.events && log.positions === mine.applied.positions) return null;
  const counted = log.events === mine.applied.events ? `${log.events} events, but not the same ones,` : `${mine.applied.events} of the ${log.events} events`;
  return (
    `its replay does not account for the log: it applied ${counted} of its types (${types.join(', ')}) up to ${positionToken(mine.position)}. ` +
    `Not switched in: the live build goes on serving; rebuild ${build.key.name} again for a new build`
  );
}
