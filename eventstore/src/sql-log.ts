import { currentSchemaVersion, sqlReadableVersions, upcastSql } from '@forum/contracts';
import type pg from 'pg';
import { SELECT_EVENTS, toRecordedEvent, type EventRow } from './event-rows.ts';
import { STORED_VERSION } from './schema.ts';
import { unsealed } from './sealing-sql.ts';
import type { LogRange, SqlLog } from './types.ts';

/**
 * The events of a range, with its placeholders numbered by `param` (pg's `$n`, or knex's `?`):
 * bounded by global positions first, so that an index serves it, then by log order.
 */
const inRange = (param: (i: number) => string) =>
  `global_position BETWEEN ${param(0)}::bigint AND ${param(1)}::bigint
   AND (transaction_id, global_position) > (${param(2)}::text::xid8, ${param(3)}::bigint)
   AND (transaction_id, global_position) <= (${param(4)}::text::xid8, ${param(5)}::bigint)`;

/** The bindings of `inRange`. */
const rangeBindings = (range: LogRange) => [
  range.lowest.toString(),
  range.highest.toString(),
  range.after.transactionId.toString(),
  range.after.globalPosition.toString(),
  range.upTo.transactionId.toString(),
  range.upTo.globalPosition.toString(),
];

/**
 * `columns` of the `limit` events after a position in log order, below the oldest running
 * transaction and up to `until` (the $1 to $7 of `nextRange`).
 */
const nextEvents = (columns: string) => `SELECT ${columns} FROM eventstore.events
  WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
    AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
    AND ($6::text IS NULL OR (transaction_id, global_position) <= ($6::text::xid8, $7::bigint))
  ORDER BY transaction_id, global_position LIMIT $3`;

/** What `nextRange` finds: its events, their lowest and highest positions, and its last event in log order (transaction id, position). */
interface NextRangeRow {
  events: string;
  lowest: string | null;
  highest: string | null;
  last: [string, string] | null;
}
export /** The log in SQL (see `SqlLog`), read in the same order and with the same bound as `readAll`. */
function sqlLog(pool: pg.Pool): SqlLog {
  // the same database, the same server run, the same events table: the same log
  const IDENTITY = `SELECT current_database() AS database, pg_postmaster_start_time()::text AS started,
    to_regclass('eventstore.events')::oid::text AS log, has_table_privilege('eventstore.events', 'SELECT') AS readable`;
  let identity: Promise<Record<string, unknown> | undefined> | null = null;
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  return {
    async sharedWith(query) {
      identity ??= pool.query<Record<string, unknown>>(IDENTITY).then(({ rows }) => rows[0]);
      const [theirs, ours] = await Promise.all([
        query(IDENTITY)
          .then((rows) => rows[0])
          .catch(() => undefined),
        identity,
      ]);
      return theirs !== undefined && ours !== undefined && theirs.readable === true && ['database', 'started', 'log'].every((key) => theirs[key] === ours[key]);
    },

    async nextRange(after, { limit, types, until }) {
      // types the forum does not define pass as they are (as through `upcast`)
      const defined = types.filter((type) => currentSchemaVersion(type) !== undefined);
      const readable = defined.flatMap((type) => sqlReadableVersions(type).map((version) => `${type}@${version}`));
      const bindings = [
        after.transactionId.toString(),
        after.globalPosition.toString(),
        limit,
        defined,
        readable,
        until?.transactionId.toString() ?? null,
        until?.globalPosition.toString() ?? null,
      ];
      // Where the log holds no version of these types that SQL cannot read (its catalog says so, in the
      // same snapshot), the range is read off the log-order index alone: 30 ms per 100k events instead
      // of 170 ms reading each event's version. Otherwise each event's version is read, to end the range
      // before the first event SQL cannot read.
      const fast = await pool.query<NextRangeRow & { unreadable: boolean }>(
        `SELECT count(*)::text AS events, min(global_position)::text AS lowest, max(global_position)::text AS highest,
                -- the last event in log order, as a pair (a transaction id, epoch and all, stays far below 2^63)
                max(ARRAY[transaction_id::text::bigint, global_position]) AS last,
                EXISTS (SELECT 1 FROM eventstore.schema_versions WHERE type = ANY ($4::text[]) AND NOT (type || '@' || version) = ANY ($5::text[])) AS unreadable
         FROM (${nextEvents('transaction_id, global_position')}) next`,
        bindings,
      );
      let found: NextRangeRow = fast.rows[0]!;
      if (fast.rows[0]!.unreadable) {
        const { rows } = await pool.query<NextRangeRow>(
          `WITH next AS MATERIALIZED (${nextEvents(`transaction_id, global_position, type,
             CASE WHEN type = ANY ($4::text[]) THEN ${STORED_VERSION} END AS version`)}),
           unreadable AS MATERIALIZED (
             SELECT transaction_id AS tx, global_position AS pos FROM next
             WHERE version IS NOT NULL AND NOT (type || '@' || version) = ANY ($5::text[])
             ORDER BY transaction_id, global_position LIMIT 1
           ),
           kept AS (
             SELECT n.transaction_id, n.global_position FROM next n LEFT JOIN unreadable u ON true
             WHERE u.tx IS NULL OR (n.transaction_id, n.global_position) < (u.tx, u.pos)
           )
           SELECT count(*)::text AS events, min(global_position)::text AS lowest, max(global_position)::text AS highest,
                  (SELECT ARRAY[transaction_id::text::bigint, global_position] FROM kept ORDER BY transaction_id DESC, global_position DESC LIMIT 1) AS last
           FROM kept`,
          bindings,
        );
        found = rows[0]!;
      }
      const { events, lowest, highest, last } = found;
      if (last === null || lowest === null || highest === null) return null;
      const [tx, pos] = last;
      return {
        range: { after, upTo: { transactionId: BigInt(tx), globalPosition: BigInt(pos) }, lowest: BigInt(lowest), highest: BigInt(highest) },
        events: Number(events),
      };
    },

    async read(range, types) {
      const { rows } = await pool.query<EventRow>(
        `${SELECT_EVENTS} WHERE type = ANY ($1::text[]) AND ${inRange((i) => `$${i + 2}`)} ORDER BY events.transaction_id, events.global_position`,
        [types, ...rangeBindings(range)],
      );
      return rows.map(toRecordedEvent);
    },

    events(range: LogRange, types: readonly string[], open: readonly string[] = types) {
      // each event opened once: the lateral subquery (OFFSET 0 keeps it one) is not copied into
      // every expression that reads the data, as a plain column expression would be
      const opened = 'o.opened';
      const opening = open.length === 0 ? 'e.data' : unsealed('e.data', undefined, `e.type IN (${open.map(literal).join(', ')})`);
      const upcasts = types.flatMap((type) =>
        sqlReadableVersions(type).flatMap((version) => {
          const expression = upcastSql(type, version, opened);
          return expression === opened ? [] : [`WHEN type = ${literal(type)} AND metadata->>'schemaVersion' = '${version}' THEN ${expression}`];
        }),
      );
      const data = upcasts.length > 0 ? `CASE ${upcasts.join(' ')} ELSE ${opened} END` : opened;
      return {
        sql: `(SELECT global_position AS pos, type, stream_id, stream_version, ${data} AS data, e.data AS stored
               FROM eventstore.events e CROSS JOIN LATERAL (SELECT ${opening} AS opened OFFSET 0) o
               WHERE type IN (${types.map(() => '?').join(', ')}) AND ${inRange(() => '?')})`,
        bindings: [...types, ...rangeBindings(range)],
      };
    },
  };
}
