import { positionToken, type LogPosition } from '@forum/contracts';
import type { LogTally, RecordedEvent } from '@forum/eventstore';
import { prepared, type Knex } from '@forum/platform';
import { CheckpointMoved } from './build-errors.ts';
import { inBuildSchema } from './build-schema.ts';
import { buildLabel } from './checkpoints.ts';
import type { Moved } from './checkpoint-moves.ts';
import { DEFERRED_SETTING, REPLAY_SETTINGS } from './projection.ts';
import type { BuildProgress, RunnerContext } from './runner-context.ts';

export const NOTHING: LogTally = { events: 0n, positions: 0n };

/** The events of `types` among `events`, counted as `EventStore.tally` counts the log. */
export function tallyOf(events: readonly RecordedEvent[], types: readonly string[]): LogTally {
  let count = 0n;
  let positions = 0n;
  for (const event of events) {
    if (!types.includes(event.type)) continue;
    count += 1n;
    positions += event.position.globalPosition;
  }
  return { events: count, positions };
}

/**
 * What readers hear of a live build's checkpoint: `<schema>:<position>`, and `:<applied events>`
 * when the build counts them (see Moved). CheckpointWatcher reads it.
 */
export const checkpointNotice = (schema: string, to: LogPosition, applied: string | null) =>
  `${schema}:${positionToken(to)}${applied === null ? '' : `:${applied}`}`;

/**
 * Writes what takes the build to `to`, with the checkpoint and what it was handed of the log
 * (`write`'s tally), in one transaction. With no `write` (a stretch of the log with none of the
 * build's types, as most of a busy log is for most builds) the live checkpoint moves alone,
 * with those of the other builds moving at the same moment (`checkpointMoves`).
 */
export async function commitTo(
  context: RunnerContext,
  build: BuildProgress,
  to: LogPosition,
  write: ((trx: Knex.Transaction) => Promise<LogTally | void>) | null,
) {
  const { schema, key } = build;
  const from = build.position!;
  const started = performance.now();
  const moved =
    write === null && !build.replaying && !build.tailPending
      ? await context.checkpointMoves.load({ key, from, to })
      : await inBuildSchema(context.db, schema, async (trx) => {
          if (build.replaying) await trx.raw(REPLAY_SETTINGS);
          if (build.tailPending) await trx.raw(DEFERRED_SETTING);
          const tally = (await write?.(trx)) ?? NOTHING;
          const updated = await prepared<{ rowCount: number; rows: Moved[] }>(
            trx,
            `UPDATE projections.checkpoints SET tx = ?::text::xid8, pos = ?, updated_at = now(),
               applied_events = applied_events + ?::bigint, applied_positions = applied_positions + ?::numeric
             WHERE name = ? AND version = ? AND build = ? AND tx = ?::text::xid8 AND pos = ? AND state <> 'retired'
             RETURNING applied_events::text AS applied`,
            [
              to.transactionId.toString(),
              to.globalPosition.toString(),
              tally.events.toString(),
              tally.positions.toString(),
              key.name,
              key.version,
              key.build,
              from.transactionId.toString(),
              from.globalPosition.toString(),
            ],
          );
          // the transaction rolls back with what `write` wrote
          if (updated.rowCount !== 1) throw new CheckpointMoved(`checkpoint of ${buildLabel(key)} moved or retired under us`);
          return updated.rows[0]!;
        });
  if (!moved) throw new CheckpointMoved(`checkpoint of ${buildLabel(key)} moved or retired under us`);
  build.position = to;
  build.log.debug({ position: positionToken(to), ms: Math.round(performance.now() - started) }, 'batch applied');
  // after the commit: readers waiting on X-Min-Position learn the new checkpoint
  if (build.role === 'live') context.notifyCheckpoint(checkpointNotice(schema, to, moved.applied));
}
