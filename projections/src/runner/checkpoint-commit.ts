import { positionToken, type LogPosition } from '@forum/contracts';
import { ONE_TURN, type LogTally, type RecordedEvent } from '@forum/eventstore';
import { prepared, type Knex } from '@forum/platform';
import DataLoader from 'dataloader';
import { CheckpointMoved } from './build-errors.ts';
import { inBuildSchema } from './build-schema.ts';
import { buildLabel, type BuildKey } from './checkpoints.ts';
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

export interface CheckpointMove {
  key: BuildKey;
  from: LogPosition;
  to: LogPosition;
}

/**
 * A checkpoint that moved, and how many events of the build's types it has applied (its row's
 * `applied_events`; null for a build made before that count): the count changes exactly when the
 * build's tables may have, so a reader can tell a build that passed events of other types by
 * from one that applied some of its own.
 */
export interface Moved {
  readonly applied: string | null;
}

/**
 * Checkpoints moved alone (over batches of none of a build's types) in one turn of the event loop
 * move in one statement: the builds passing a busy log of other types wake, read and move
 * together. Each move keeps its own condition (the build and the position it moves from);
 * the answer says whether it moved (null: it did not).
 */
export function batchedCheckpointMoves(db: Knex): DataLoader<CheckpointMove, Moved | null> {
  return new DataLoader<CheckpointMove, Moved | null>(
    async (moves) => {
      const { rows } = await prepared<{ rows: { ord: string; applied: string | null }[] }>(
        db,
        `UPDATE projections.checkpoints c SET tx = m.to_tx::xid8, pos = m.to_pos, updated_at = now()
         FROM unnest(?::text[], ?::integer[], ?::integer[], ?::text[], ?::bigint[], ?::text[], ?::bigint[])
              WITH ORDINALITY AS m(name, version, build, from_tx, from_pos, to_tx, to_pos, ord)
         WHERE c.name = m.name AND c.version = m.version AND c.build = m.build
           AND c.tx = m.from_tx::xid8 AND c.pos = m.from_pos AND c.state <> 'retired'
         RETURNING m.ord, c.applied_events::text AS applied`,
        [
          moves.map((m) => m.key.name),
          moves.map((m) => m.key.version),
          moves.map((m) => m.key.build),
          moves.map((m) => m.from.transactionId.toString()),
          moves.map((m) => m.from.globalPosition.toString()),
          moves.map((m) => m.to.transactionId.toString()),
          moves.map((m) => m.to.globalPosition.toString()),
        ],
      );
      const moved = new Map(rows.map((row) => [Number(row.ord) - 1, { applied: row.applied }]));
      return moves.map((_, i) => moved.get(i) ?? null);
    },
    ONE_TURN,
  );
}

/**
 * What readers hear of a live build's checkpoint: `<schema>:<position>`, and `:<applied events>`
 * when the build counts them (see Moved). CheckpointWatcher reads it.
 */
export const checkpointNotice = (schema: string, to: LogPosition, applied: string | null) => `${schema}:${positionToken(to)}${applied === null ? '' : `:${applied}`}`;

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
