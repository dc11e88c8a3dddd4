import { START, STREAM_VERSION_MAX, type LogPosition } from '@forum/contracts';
import DataLoader from 'dataloader';
import type pg from 'pg';
import { eventColumns, toRecordedEvent, type EventRow } from './event-rows.ts';
import { ONE_TURN } from './notifier.ts';
import type { ErasedAs, EventStore, LogReadOptions, RecordedEvent, StreamRead } from './types.ts';

/** The store's reads of streams and of the global log, on the pool. */
export function createReads(pool: pg.Pool): Pick<EventStore, 'readStream' | 'readAll' | 'tally' | 'head'> {
  /**
   * Stream reads asked for in one turn of the event loop go to PostgreSQL as one statement: a
   * command loads its streams side by side (the actor's, the post's, the vote's), and commands
   * arriving together load theirs together; one round trip instead of one per stream. Never a
   * cache: each read sees the log as the statement finds it.
   */
  const streamReads = new DataLoader<{ streamId: string; after: number; upTo: number; erasedAs: ErasedAs }, RecordedEvent[]>(
    async (wanted) => {
      const { rows } = await pool.query<EventRow & { ord: string }>({
        name: 'forum_read_streams',
        text: READ_STREAMS,
        values: [wanted.map((w) => w.streamId), wanted.map((w) => w.after), wanted.map((w) => w.upTo), wanted.map((w) => w.erasedAs)],
      });
      const events: RecordedEvent[][] = wanted.map(() => []);
      for (const row of rows) events[Number(row.ord) - 1]!.push(toRecordedEvent(row));
      return events;
    },
    { ...ONE_TURN, maxBatchSize: 500 },
  );

  /**
   * Reads of the global log asked for in one turn of the event loop (subscribers woken by the same
   * commit) go as one statement, and those from the same position for as many events share one
   * read. Each answers what it would have alone: the events after its position, below the oldest
   * running transaction as the statement finds it; opened for the types any of them opens.
   */
  const logReads = new DataLoader<{ after: LogPosition; limit: number; open: readonly string[] | undefined }, RecordedEvent[]>(
    async (asked) => {
      // the same read asked for twice is read once
      const keyOf = ({ after, limit }: { after: LogPosition; limit: number }) => `${after.transactionId}.${after.globalPosition}:${limit}`;
      const distinct = new Map(asked.map((read) => [keyOf(read), read]));
      const wanted = [...distinct.values()];
      const open = openedTypes(asked);
      let events: RecordedEvent[][];
      if (wanted.length === 1) {
        const { after, limit } = wanted[0]!;
        const { rows } = await pool.query<EventRow>({
          name: `forum_read_all_${limit}`,
          text: readAllUpTo(limit),
          values: [after.transactionId.toString(), after.globalPosition.toString(), open],
        });
        events = [rows.map(toRecordedEvent)];
      } else {
        const { rows } = await pool.query<EventRow & { ord: string }>({
          name: 'forum_read_all_batch',
          text: READ_ALL_BATCH,
          values: [wanted.map((w) => w.after.transactionId.toString()), wanted.map((w) => w.after.globalPosition.toString()), wanted.map((w) => w.limit), open],
        });
        events = wanted.map(() => []);
        for (const row of rows) events[Number(row.ord) - 1]!.push(toRecordedEvent(row));
      }
      const byKey = new Map(wanted.map((read, i) => [keyOf(read), events[i]!]));
      return asked.map((read) => [...byKey.get(keyOf(read))!]);
    },
    { ...ONE_TURN, maxBatchSize: 50 },
  );

  return {
    async readStream(streamId: string, options: { afterVersion?: number; maxCount?: number; erasedAs?: ErasedAs } = {}): Promise<StreamRead> {
      const after = options.afterVersion ?? 0;
      // versions count a stream's events from 1 without gaps: the next `maxCount` are those up to after + maxCount
      const upTo = options.maxCount === undefined ? STREAM_VERSION_MAX : Math.min(STREAM_VERSION_MAX, after + options.maxCount);
      const events = await streamReads.load({ streamId, after, upTo, erasedAs: options.erasedAs ?? 'placeholder' });
      return { version: events.at(-1)?.streamVersion ?? after, events };
    },

    readAll(after: LogPosition, limit: number, options: LogReadOptions = {}): Promise<RecordedEvent[]> {
      return logReads.load({ after, limit, open: options.open });
    },

    async tally(types, upTo) {
      // Log order is (transaction, position): the events up to `upTo` are those at or below its
      // position, read off the index by type and position alone, less those of later transactions
      // among them, plus those of earlier transactions above it. Both corrections are the few
      // transactions that ran beside the one of `upTo`: a reader at the head asks.
      const { rows } = await pool.query<{ events: string; positions: string }>(
        `SELECT (below.n - later.n + earlier.n)::text AS events, (below.s - later.s + earlier.s)::text AS positions
         FROM (SELECT count(*) AS n, coalesce(sum(global_position), 0) AS s FROM eventstore.events
               WHERE type = ANY ($1::text[]) AND global_position <= $3::bigint) below,
              (SELECT count(*) AS n, coalesce(sum(global_position), 0) AS s FROM eventstore.events
               WHERE transaction_id > $2::text::xid8 AND global_position <= $3::bigint AND type = ANY ($1::text[])) later,
              (SELECT count(*) AS n, coalesce(sum(global_position), 0) AS s FROM eventstore.events
               WHERE global_position > $3::bigint AND transaction_id < $2::text::xid8 AND type = ANY ($1::text[])) earlier`,
        [types, upTo.transactionId.toString(), upTo.globalPosition.toString()],
      );
      return { events: BigInt(rows[0]!.events), positions: BigInt(rows[0]!.positions) };
    },

    async head(): Promise<LogPosition> {
      const { rows } = await pool.query<{ tx: string; pos: string }>(
        `SELECT transaction_id::text AS tx, global_position::text AS pos FROM eventstore.events
         ORDER BY events.global_position DESC LIMIT 1`,
      );
      const row = rows[0];
      return row ? { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) } : START;
    },
  };
}

/**
 * The events after a version of each of several streams, up to a version ($1: their ids, $2: the versions after,
 * $3: the versions up to, $4: how erased fields read, see ErasedAs), each read's by its `ord` (from 1), in stream order.
 */
const READ_STREAMS = `SELECT w.ord, ${eventColumns('e.', 'w.erased_as')}
  FROM unnest($1::text[], $2::integer[], $3::integer[], $4::text[]) WITH ORDINALITY AS w(stream_id, after, up_to, erased_as, ord)
  JOIN eventstore.events e ON e.stream_id = w.stream_id AND e.stream_version > w.after AND e.stream_version <= w.up_to
  ORDER BY w.ord, e.stream_version`;

/** The types a batch of reads opens: every type when one of them opens every type (null, as the statements take it). */
function openedTypes(reads: readonly { open: readonly string[] | undefined }[]): string[] | null {
  if (reads.some((read) => read.open === undefined)) return null;
  return [...new Set(reads.flatMap((read) => read.open!))];
}

/**
 * The events after a position in log order, below the oldest transaction still running; at most
 * `limit`; opened for the types in `open` (an SQL text[] expression; every type when it is null).
 */
const eventsAfter = (
  tx: string,
  pos: string,
  limit: string,
  open: string,
) => `SELECT ${eventColumns('', "'placeholder'", `(${open} IS NULL OR type = ANY (${open}))`)}
  FROM eventstore.events
  WHERE (transaction_id, global_position) > (${tx}::xid8, ${pos}::bigint)
    AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY events.transaction_id, events.global_position
  LIMIT ${limit}`;

/**
 * One read of the log ($1, $2: the transaction and position after; $3: the types opened), its limit
 * written in: a prepared statement per limit, which PostgreSQL plans once. With the limit as a
 * parameter its generic plan looked dearer than planning each read afresh (a tenth of the log
 * assumed), and it planned every read anew: some 150 µs each, under 16 writers.
 */
function readAllUpTo(limit: number): string {
  let text = readAllTexts.get(limit);
  if (text === undefined) {
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`a read of the log takes a whole number of events, not ${limit}`);
    readAllTexts.set(limit, (text = eventsAfter('$1::text', '$2', String(limit), '$3::text[]')));
  }
  return text;
}
/** The texts of the reads of the log written so far, by limit (a handful: the readers' batch sizes). */
const readAllTexts = new Map<number, string>();

/** Reads of the log from several positions at once ($1, $2, $3: their transactions, positions and limits; $4: the types opened), each read's rows by its `ord` (from 1). */
const READ_ALL_BATCH = `SELECT w.ord, e.* FROM unnest($1::text[], $2::bigint[], $3::integer[]) WITH ORDINALITY AS w(tx, pos, lim, ord)
  CROSS JOIN LATERAL (${eventsAfter('w.tx', 'w.pos', 'w.lim', '$4::text[]')}) e
  ORDER BY w.ord, e.tx::xid8, e.pos::bigint`;

/** Whether the log holds committed events after `position`: a subscriber that read none asks (they wait behind an older transaction still open). */
export function eventsBeyond(pool: pg.Pool): (position: LogPosition) => Promise<boolean> {
  return async (position) => {
    const { rows } = await pool.query<{ exists: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM eventstore.events WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)) AS exists`,
      [position.transactionId.toString(), position.globalPosition.toString()],
    );
    return rows[0]?.exists ?? false;
  };
}
