import { createHash } from 'node:crypto';
import { POST_HISTORY_TYPES } from '@forum/contracts';
import type pg from 'pg';
import { eventColumns, toRecordedEvent, type EventRow } from './event-rows.ts';
import type { EventStore } from './types.ts';

/**
 * Histories (docs/operations/history.md). An event's actor and the post a comment's, vote's or
 * report's event names are read off indexes on these expressions, in log order: PostgreSQL keeps
 * them for every row whoever inserts it, and builds them once for a log written before them.
 */
const ACTOR = `(metadata ->> 'actorId')`;
const POST = `(data ->> 'postId')`;
/** The types of the post index, written out: a partial index serves a query that names its predicate's very types. */
const POST_TYPES = `type IN (${POST_HISTORY_TYPES.map((type) => `'${type}'`).join(', ')})`;
/** The post index's name says its types: a build with other types makes its own (and drops the other). */
const POST_INDEX = `events_by_post_${createHash('sha256').update(POST_HISTORY_TYPES.join(',')).digest('hex').slice(0, 8)}`;
const HISTORY_INDEXES: readonly { name: string; definition: string }[] = [
  { name: 'events_by_actor', definition: `(${ACTOR}, transaction_id, global_position)` },
  { name: POST_INDEX, definition: `(${POST}, transaction_id, global_position) WHERE ${POST_TYPES}` },
];

/**
 * The events a history selects ($1: an actor, $2: streams, $3: a post; see HistorySelection), after
 * a position ($4, $5) in log order, below the oldest running transaction; at most $6, erased fields
 * as $7 says. Each criterion takes its first $6 off its own index, then the union its first $6.
 */
const afterInLog = `(transaction_id, global_position) > ($4::text::xid8, $5::bigint) AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())`;
const READ_HISTORY = `WITH picked AS (
    (SELECT global_position, transaction_id FROM eventstore.events
     WHERE ${ACTOR} = $1::text AND ${afterInLog} ORDER BY transaction_id, global_position LIMIT $6)
    UNION
    (SELECT global_position, transaction_id FROM eventstore.events
     WHERE stream_id = ANY ($2::text[]) AND ${afterInLog} ORDER BY transaction_id, global_position LIMIT $6)
    UNION
    (SELECT global_position, transaction_id FROM eventstore.events
     WHERE ${POST} = $3::text AND ${POST_TYPES} AND ${afterInLog} ORDER BY transaction_id, global_position LIMIT $6)
  )
  SELECT ${eventColumns('e.', '$7::text')}
  FROM picked p JOIN eventstore.events e ON e.global_position = p.global_position
  ORDER BY p.transaction_id, p.global_position
  LIMIT $6`;

/** `EventStore.readHistory` on the pool. */
export function readHistory(pool: pg.Pool): EventStore['readHistory'] {
  return async (selection, { after, limit, erasedAs = 'placeholder' }) => {
    const { rows } = await pool.query<EventRow>({
      name: 'forum_read_history',
      text: READ_HISTORY,
      values: [
        selection.actorId ?? null,
        selection.streamIds ?? [],
        selection.postId ?? null,
        after.transactionId.toString(),
        after.globalPosition.toString(),
        limit,
        erasedAs,
      ],
    });
    return rows.map(toRecordedEvent);
  };
}

/**
 * Creates the history indexes that are missing; one a crash left half-built (invalid) is built
 * again. Drops a post index of other types. A log with events is indexed CONCURRENTLY, so appends
 * go on while a long log is indexed; an empty one at once, since CONCURRENTLY waits for every older
 * transaction of the database to end (other processes starting beside this one, say).
 */
export async function migrateHistoryIndexes(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ name: string; valid: boolean }>(
    `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i
     JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'eventstore' AND i.indrelid = 'eventstore.events'::regclass`,
  );
  const found = new Map(rows.map((row) => [row.name, row.valid]));
  const missing = HISTORY_INDEXES.filter(({ name }) => found.get(name) !== true);
  const stale = [...found.keys()].filter((name) => name.startsWith('events_by_post_') && name !== POST_INDEX);
  if (missing.length === 0 && stale.length === 0) return;
  const { rows: log } = await client.query<{ empty: boolean }>(`SELECT NOT EXISTS (SELECT 1 FROM eventstore.events) AS empty`);
  const concurrently = log[0]!.empty ? '' : 'CONCURRENTLY';
  for (const { name, definition } of missing) {
    if (found.has(name)) await client.query(`DROP INDEX ${concurrently} IF EXISTS eventstore.${name}`);
    await client.query(`CREATE INDEX ${concurrently} IF NOT EXISTS ${name} ON eventstore.events ${definition}`);
  }
  for (const name of stale) await client.query(`DROP INDEX ${concurrently} IF EXISTS eventstore.${name}`);
}
