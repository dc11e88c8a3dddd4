import type { LogRange } from '@forum/eventstore';
import type { Knex } from '@forum/platform';

/**
 * The stretch of the log a staged replay has gone through since it last
 * settled, kept per settle step (see `Projection.replay`), for steps that read
 * those events again when they settle rather than record facts about them at
 * every range. A step takes its span in its own transaction, so it settles a
 * stretch exactly once.
 */
export const REPLAY_SPANS_TABLE = `CREATE TABLE IF NOT EXISTS replay_spans (
  step text PRIMARY KEY,
  after_tx xid8 NOT NULL, after_pos bigint NOT NULL,
  upto_tx xid8 NOT NULL, upto_pos bigint NOT NULL,
  lowest bigint NOT NULL, highest bigint NOT NULL
)`;

/** Adds a staged range to the spans of `steps` (ranges come one after another in log order). */
export async function extendSpans(trx: Knex.Transaction, steps: readonly string[], range: LogRange): Promise<void> {
  await trx.raw(
    `INSERT INTO replay_spans (step, after_tx, after_pos, upto_tx, upto_pos, lowest, highest)
     SELECT step, ?::text::xid8, ?::bigint, ?::text::xid8, ?::bigint, ?::bigint, ?::bigint FROM unnest(?::text[]) AS step
     ON CONFLICT (step) DO UPDATE SET upto_tx = excluded.upto_tx, upto_pos = excluded.upto_pos,
       lowest = least(replay_spans.lowest, excluded.lowest), highest = greatest(replay_spans.highest, excluded.highest)`,
    [
      range.after.transactionId.toString(),
      range.after.globalPosition.toString(),
      range.upTo.transactionId.toString(),
      range.upTo.globalPosition.toString(),
      range.lowest.toString(),
      range.highest.toString(),
      [...steps],
    ],
  );
}

/** Takes a step's span (null when there is nothing to settle): it is gone once the transaction commits. */
export async function takeSpan(trx: Knex.Transaction, step: string): Promise<LogRange | null> {
  const { rows } = await trx.raw<{ rows: Record<'after_tx' | 'after_pos' | 'upto_tx' | 'upto_pos' | 'lowest' | 'highest', string>[] }>(
    `DELETE FROM replay_spans WHERE step = ?
     RETURNING after_tx::text, after_pos::text, upto_tx::text, upto_pos::text, lowest::text, highest::text`,
    [step],
  );
  const span = rows[0];
  if (!span) return null;
  return {
    after: { transactionId: BigInt(span.after_tx), globalPosition: BigInt(span.after_pos) },
    upTo: { transactionId: BigInt(span.upto_tx), globalPosition: BigInt(span.upto_pos) },
    lowest: BigInt(span.lowest),
    highest: BigInt(span.highest),
  };
}
