import type { LogPosition } from '@forum/contracts';
import { ONE_TURN } from '@forum/eventstore';
import { prepared, type Knex } from '@forum/platform';
import DataLoader from 'dataloader';
import type { BuildKey } from './checkpoints.ts';

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
  return new DataLoader<CheckpointMove, Moved | null>(async (moves) => {
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
  }, ONE_TURN);
}
