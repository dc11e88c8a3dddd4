import { parsePositionToken, type LogPosition } from '@forum/contracts';
import type pg from 'pg';

/** What a moment given on forumctl's command line is in the log (docs/operations/time-travel.md). */

/** A moment of the log: an event's position and time. */
export interface Moment {
  readonly position: LogPosition;
  readonly at: Date;
}

export class MomentError extends Error {}

const HOW = 'give an ISO time (2026-11-29T21:00:00Z), a position (1234) or a position token from forumctl history (812.1234)';

/**
 * What `<time|position>` names in the log (the PostgreSQL event store): a position (an event's
 * global position, or the token `forumctl history` prints) is that event; a time is the last event
 * recorded at or before it, in log order. A position the log has no event at, a time in the future
 * or before the first event, and anything else are refused with a MomentError saying why.
 */
export async function resolveMoment(client: pg.Client, text: string, now: Date): Promise<Moment> {
  const given = text.trim();
  const token = parsePositionToken(given);
  const whole = /^\d{1,19}$/.test(given) ? BigInt(given) : null;
  if (token || whole !== null) {
    const global = token ? token.globalPosition : whole!;
    const { rows } = await client.query<{ tx: string; pos: string; at: Date }>(
      `SELECT transaction_id::text AS tx, global_position::text AS pos, recorded_at AS at FROM eventstore.events WHERE global_position = $1`,
      [global.toString()],
    );
    const found = rows[0];
    if (found && (!token || BigInt(found.tx) === token.transactionId))
      return { position: { transactionId: BigInt(found.tx), globalPosition: global }, at: found.at };
    const last = await lastPosition(client);
    if (last === null || global > last)
      throw new MomentError(`Position ${given} is beyond the log: its last event is at ${last ?? 'nothing (the log is empty)'}`);
    throw new MomentError(`No event of the log is at position ${given}`);
  }
  const time = /^\d{4}-\d{2}-\d{2}/.test(given) ? new Date(given) : null;
  if (!time || Number.isNaN(time.getTime())) throw new MomentError(`Not a time nor a position: ${given} (${HOW})`);
  if (time.getTime() > now.getTime()) throw new MomentError(`${time.toISOString()} is in the future`);
  const { rows } = await client.query<{ tx: string; pos: string; at: Date }>(
    `SELECT transaction_id::text AS tx, global_position::text AS pos, recorded_at AS at FROM eventstore.events
     WHERE recorded_at <= $1 ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    [time],
  );
  if (!rows[0]) throw new MomentError(`The log has no event at or before ${time.toISOString()}`);
  return { position: { transactionId: BigInt(rows[0].tx), globalPosition: BigInt(rows[0].pos) }, at: rows[0].at };
}

async function lastPosition(client: pg.Client): Promise<bigint | null> {
  const { rows } = await client.query<{ last: string | null }>(`SELECT max(global_position)::text AS last FROM eventstore.events`);
  return rows[0]!.last === null ? null : BigInt(rows[0]!.last);
}
