import { compareLogPositions, positionToken, START, type LogPosition } from '@forum/contracts';
import type { EventStore } from '@forum/eventstore';
import type { Knex } from '@forum/platform';
import { applyOwn, DEFERRED_SETTING, REPLAY_SETTINGS, settleReplay, sqlLogIn, STAGE_RANGE_SIZE, stageUntil, type Projection } from '../runner/projection.ts';

export interface ReplayOptions {
  batchSize?: number;
  /** false: event by event through `apply` only, never the projection's staged replay (a replay to compare a staged build with). */
  staged?: boolean;
  /** Called after each stretch of the log applied, with the position reached. */
  onProgress?: (position: LogPosition) => void | Promise<void>;
}

/**
 * Replays the log from its start up to and including `target` (and not one event past it) into
 * the projection's tables in the transaction's schema (its search_path), creating them: a build
 * no one reads, as a rebuild replays it (the projection's staged replay where it has one, settled,
 * then the ordinary way), stopped at a position. The read indexes and what depends on batches
 * (`derived`) are left to the caller.
 */
export async function replayUpTo(trx: Knex.Transaction, store: EventStore, projection: Projection, target: LogPosition, options: ReplayOptions = {}) {
  const batchSize = options.batchSize ?? 5000;
  await projection.migrate(trx);
  await trx.raw(DEFERRED_SETTING);
  let position: LogPosition = START;
  const log = (options.staged ?? true) && projection.replay ? await sqlLogIn(trx, store) : null;
  if (log) {
    await trx.raw(REPLAY_SETTINGS);
    position = await stageUntil(log, projection, { after: START, until: target, rangeSize: STAGE_RANGE_SIZE }, async (work) => {
      await work(trx);
    });
    await settleReplay(trx, projection, log);
    await options.onProgress?.(position);
  }
  while (compareLogPositions(position, target) < 0) {
    const read = await store.readAll(position, batchSize);
    if (read.length === 0) throw new Error(`the log ends before ${positionToken(target)}`);
    const events = read.filter((e) => compareLogPositions(e.position, target) <= 0);
    if (events.length > 0) await applyOwn(trx, projection, events);
    // the next event is past the target: the replay is there
    position = events.length < read.length ? target : events.at(-1)!.position;
    await options.onProgress?.(position);
  }
}
