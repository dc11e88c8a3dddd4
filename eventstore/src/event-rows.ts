import { upcastOnRead, type EventMetadata } from '@forum/contracts';
import { unsealed } from './sealing-sql.ts';
import type { RecordedEvent } from './types.ts';

/** An event as the adapter's statements select it (see `eventColumns`). */
export interface EventRow {
  pos: string;
  tx: string;
  stream_id: string;
  stream_version: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

/**
 * An event's columns, positions as text (exact), under names that cannot shadow the columns in
 * ORDER BY; its personal data opened, erased fields as `erasedAs` says, or, with `open` (an SQL
 * condition), opened only where it holds.
 */
export const eventColumns = (alias: string, erasedAs = "'placeholder'", open?: string) =>
  `${alias}global_position::text AS pos, ${alias}transaction_id::text AS tx, ${alias}stream_id, ${alias}stream_version, ${alias}type, ${unsealed(`${alias}data`, erasedAs, open)} AS data, ${alias}metadata, ${alias}recorded_at`;
export const SELECT_EVENTS = `SELECT ${eventColumns('')}
  FROM eventstore.events`;

/** Stored rows keep the shape they were written in; readers (folds, projections, subscribers) get the current one. */
export function toRecordedEvent(row: EventRow): RecordedEvent {
  return upcastOnRead({
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    position: { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) },
    recordedAt: row.recorded_at,
  });
}
