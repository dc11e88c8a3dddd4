import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import {
  compareLogPositions,
  currentSchemaVersion,
  POST_HISTORY_TYPES,
  sqlReadableVersions,
  START,
  STREAM_VERSION_MAX,
  upcastOnRead,
  upcastSql,
  type EventMetadata,
  type LogPosition,
} from '@forum/contracts';
import { abortableSleep } from '@forum/platform';
import DataLoader from 'dataloader';
import pg from 'pg';
import type {
  AppendOutcome,
  ErasedAs,
  AppendResult,
  EventStore,
  IdempotentAppend,
  LogRange,
  RecordedEvent,
  SqlLog,
  StreamAppend,
  StreamRead,
  SubscribeOptions,
  Subscription,
} from './types.ts';
import { WrongExpectedVersionError } from './types.ts';
import { CoalescingNotifier, NOTIFY_ALL, ONE_TURN } from './notifier.ts';
import { migrateSealing, sealStoredEvents, unsealed } from './sealing-sql.ts';

export const EVENTS_CHANNEL = 'forum_events';

export interface PostgresEventStoreOptions {
  connectionString: string;
  poolSize?: number;
  /** How long an idle subscriber waits for a NOTIFY before it looks anyway. */
  pollIntervalMs?: number;
  /** Tests only: runs inside every writing transaction, just before COMMIT. */
  beforeCommit?: (appends: readonly StreamAppend[]) => Promise<void>;
}

export const SCHEMA_LOCK = 7_243_901;
const SCHEMA_LOCK_RETRY_MS = 50;
const DEADLOCK_DETECTED = '40P01';

/**
 * The event store on PostgreSQL.
 *
 * - `streams` holds each stream's version; the row lock it takes serialises
 *   writers of one stream and checks the expected version without a race.
 * - `events` records the writing transaction's id (xid8). Readers of the global
 *   log read only rows below the oldest transaction still running
 *   (pg_snapshot_xmin), ordered by (transaction_id, global_position), so an
 *   event whose transaction commits late is never skipped.
 */
export async function createPostgresEventStore(options: PostgresEventStoreOptions): Promise<EventStore> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10, application_name: 'forum-eventstore' });
  pool.on('error', () => {}); // an idle client's error surfaces on its next use
  await migrateEventStore(pool);
  const wake = new Wakeup(options.connectionString);
  const notifier = new CoalescingNotifier((payloads) => pool.query(NOTIFY_ALL, [EVENTS_CHANNEL, payloads]));
  const pollIntervalMs = options.pollIntervalMs ?? 1000;

  /** Appends to several streams in one transaction (one statement per stream). */
  async function appendInTransaction(client: pg.PoolClient, appends: readonly StreamAppend[]): Promise<AppendResult> {
    const versions: Record<string, number> = {};
    let lastPosition = START;
    // One lock order for every writer, so multi-stream appends never deadlock each other
    const ordered = [...appends].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
    for (const append of ordered) {
      if (append.events.length === 0) continue;
      const appended = await appendStatement(client, append);
      versions[append.streamId] = appended.version;
      if (compareLogPositions(appended.last, lastPosition) > 0) lastPosition = appended.last;
    }
    if (compareLogPositions(lastPosition, START) === 0) throw new Error('An append needs at least one event');
    if (options.beforeCommit) await options.beforeCommit(appends);
    return { versions, lastPosition };
  }

  /** After a commit: wake this process's subscribers now, and other processes' through NOTIFY. */
  function committed() {
    wake.wakeAll();
    notifier.notify();
  }

  /**
   * A transaction PostgreSQL chose to end a deadlock with is tried again: it was rolled back
   * whole. Writers lock existing streams in one order, but a group commit inserts its new streams
   * after locking its existing ones, so a transaction inserting one of them before locking one of
   * those can meet it the other way round (two commands creating the same stream at once).
   */
  async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransactionOnce(work);
      } catch (error) {
        if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt >= 3) throw error;
      }
    }
  }

  async function inTransactionOnce<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

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
   * Group commit: one-stream appends asked for in one turn of the event loop (commands arriving
   * together) go to PostgreSQL as one statement, one transaction, one WAL flush. Each keeps its own
   * expectation: those whose expectation holds are appended together, those it fails for (and a
   * second append to a stream already in the statement, and every append if the statement itself
   * fails) are appended alone afterwards, as they would have been without the batch, which gives
   * them their own answer (a conflict with the version found).
   */
  const oneStreamAppends = new DataLoader<StreamAppend, Appended>(
    async (wanted) => {
      if (wanted.length === 1) return [await appendStatement(pool, wanted[0]!).catch((error: Error) => error)];
      const answers: (Appended | Error | undefined)[] = wanted.map(() => undefined);
      const batched = new Map<string, number>();
      wanted.forEach((append, i) => {
        if (append.expectedVersion !== 'any' && !batched.has(append.streamId)) batched.set(append.streamId, i);
      });
      if (batched.size > 1) {
        try {
          for (const [streamId, appended] of await appendStatements(pool, [...batched.values()].map((i) => wanted[i]!))) answers[batched.get(streamId)!] = appended;
        } catch {
          // each on its own below
        }
      }
      for (const [i, append] of wanted.entries()) answers[i] ??= await appendStatement(pool, append).catch((error: Error) => error);
      return answers as (Appended | Error)[];
    },
    { ...ONE_TURN, maxBatchSize: 200 },
  );

  /**
   * Reads of the global log asked for in one turn of the event loop (subscribers woken by the same
   * commit) go as one statement, and those from the same position for as many events share one
   * read. Each answers what it would have alone: the events after its position, below the oldest
   * running transaction as the statement finds it.
   */
  const logReads = new DataLoader<{ after: LogPosition; limit: number }, RecordedEvent[]>(
    async (asked) => {
      // the same read asked for twice is read once
      const keyOf = ({ after, limit }: { after: LogPosition; limit: number }) => `${after.transactionId}.${after.globalPosition}:${limit}`;
      const distinct = new Map(asked.map((read) => [keyOf(read), read]));
      const wanted = [...distinct.values()];
      let events: RecordedEvent[][];
      if (wanted.length === 1) {
        const { after, limit } = wanted[0]!;
        const { rows } = await pool.query<EventRow>({ name: 'forum_read_all', text: READ_ALL, values: [after.transactionId.toString(), after.globalPosition.toString(), limit] });
        events = [rows.map(toRecordedEvent)];
      } else {
        const { rows } = await pool.query<EventRow & { ord: string }>({
          name: 'forum_read_all_batch',
          text: READ_ALL_BATCH,
          values: [wanted.map((w) => w.after.transactionId.toString()), wanted.map((w) => w.after.globalPosition.toString()), wanted.map((w) => w.limit)],
        });
        events = wanted.map(() => []);
        for (const row of rows) events[Number(row.ord) - 1]!.push(toRecordedEvent(row));
      }
      const byKey = new Map(wanted.map((read, i) => [keyOf(read), events[i]!]));
      return asked.map((read) => [...byKey.get(keyOf(read))!]);
    },
    { ...ONE_TURN, maxBatchSize: 50 },
  );

  const store: EventStore = {
    async append(appends) {
      let result: AppendResult;
      const single = appends.filter((a) => a.events.length > 0);
      if (single.length === 1 && !options.beforeCommit) {
        // The common case: one stream, no round trip while it holds locks, committed with the
        // other commands' appends of the moment
        const appended = await oneStreamAppends.load(single[0]!);
        result = { versions: { [single[0]!.streamId]: appended.version }, lastPosition: appended.last };
      } else {
        result = await inTransaction((client) => appendInTransaction(client, appends));
      }
      committed();
      return result;
    },

    async appendIdempotent<Answer>(appends: readonly StreamAppend[], idempotency: IdempotentAppend<Answer>): Promise<AppendOutcome<Answer>> {
      try {
        return await inTransaction(async (client) => {
          // Taken first: a concurrent call with the same key waits here until this one ends
          await client.query('INSERT INTO eventstore.idempotency_keys (key) VALUES ($1)', [idempotency.key]);
          await idempotency.beforeAppend?.();
          const result = await appendInTransaction(client, appends);
          const answer = idempotency.answer(result);
          await client.query('UPDATE eventstore.idempotency_keys SET answer = $2 WHERE key = $1', [
            idempotency.key,
            JSON.stringify(answer),
          ]);
          return { duplicate: false as const, result, answer };
        }).then((outcome) => {
          committed();
          return outcome;
        });
      } catch (error) {
        if ((error as { code?: string }).code !== '23505' || (error as { constraint?: string }).constraint !== 'idempotency_keys_pkey') throw error;
        const answer = await store.idempotentAnswer<Answer>(idempotency.key);
        if (answer === null) throw error;
        return { duplicate: true, answer };
      }
    },

    async idempotentAnswer<Answer>(key: string): Promise<Answer | null> {
      const { rows } = await pool.query<{ answer: Answer | null }>('SELECT answer FROM eventstore.idempotency_keys WHERE key = $1', [key]);
      return rows[0]?.answer ?? null;
    },

    async readStream(streamId: string, options: { afterVersion?: number; maxCount?: number; erasedAs?: ErasedAs } = {}): Promise<StreamRead> {
      const after = options.afterVersion ?? 0;
      // versions count a stream's events from 1 without gaps: the next `maxCount` are those up to after + maxCount
      const upTo = options.maxCount === undefined ? STREAM_VERSION_MAX : Math.min(STREAM_VERSION_MAX, after + options.maxCount);
      const events = await streamReads.load({ streamId, after, upTo, erasedAs: options.erasedAs ?? 'placeholder' });
      return { version: events.at(-1)?.streamVersion ?? after, events };
    },

    readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
      return logReads.load({ after, limit });
    },

    async readHistory(selection, { after, limit, erasedAs = 'placeholder' }) {
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

    subscribe(subscribeOptions: SubscribeOptions): Subscription {
      return runSubscription(store, pool, wake, pollIntervalMs, subscribeOptions);
    },

    sql: sqlLog(pool),

    async close() {
      await wake.close();
      await pool.end();
    },
  };
  return store;
}

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

/** An event's stored schema version, as the catalog `eventstore.schema_versions` lists it ('?': none in its metadata). */
const STORED_VERSION = `coalesce(metadata->>'schemaVersion', '?')`;

/** Catalogues the (type, version) pairs of the events `from` selects. */
const CATALOGUE_VERSIONS = (from: string) =>
  `INSERT INTO eventstore.schema_versions (type, version) SELECT DISTINCT type, ${STORED_VERSION} FROM ${from} ON CONFLICT DO NOTHING`;

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

/** The log in SQL (see `SqlLog`), read in the same order and with the same bound as `readAll`. */
function sqlLog(pool: pg.Pool): SqlLog {
  // the same database, the same server run, the same events table: the same log
  const IDENTITY = `SELECT current_database() AS database, pg_postmaster_start_time()::text AS started,
    to_regclass('eventstore.events')::oid::text AS log, has_table_privilege('eventstore.events', 'SELECT') AS readable`;
  let identity: Promise<Record<string, unknown> | undefined> | null = null;
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  return {
    async sharedWith(query) {
      identity ??= pool.query<Record<string, unknown>>(IDENTITY).then(({ rows }) => rows[0]);
      const [theirs, ours] = await Promise.all([query(IDENTITY).then((rows) => rows[0]).catch(() => undefined), identity]);
      return theirs !== undefined && ours !== undefined && theirs.readable === true && ['database', 'started', 'log'].every((key) => theirs[key] === ours[key]);
    },

    async nextRange(after, { limit, types, until }) {
      // types the forum does not define pass as they are (as through `upcast`)
      const defined = types.filter((type) => currentSchemaVersion(type) !== undefined);
      const readable = defined.flatMap((type) => sqlReadableVersions(type).map((version) => `${type}@${version}`));
      const bindings = [after.transactionId.toString(), after.globalPosition.toString(), limit, defined, readable, until?.transactionId.toString() ?? null, until?.globalPosition.toString() ?? null];
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
      const opening = open.length === 0 ? 'e.data' : `CASE WHEN e.type IN (${open.map(literal).join(', ')}) THEN ${unsealed('e.data')} ELSE e.data END`;
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

/**
 * Appends one stream's events in one statement: the version bump checks the
 * expectation and takes the stream's row lock; the events follow only when it
 * returned a row. No row means the expectation failed.
 */
const BUMP: Record<'any' | 'no_stream' | 'version', string> = {
  any: `INSERT INTO eventstore.streams AS s (stream_id, version) VALUES ($1, $2)
        ON CONFLICT (stream_id) DO UPDATE SET version = s.version + EXCLUDED.version RETURNING version`,
  no_stream: `INSERT INTO eventstore.streams (stream_id, version) VALUES ($1, $2) ON CONFLICT (stream_id) DO NOTHING RETURNING version`,
  version: `UPDATE eventstore.streams SET version = version + $2 WHERE stream_id = $1 AND version = $6 RETURNING version`,
};

interface Appended {
  readonly version: number;
  readonly last: LogPosition;
}

const STREAM_VERSION = 'SELECT version FROM eventstore.streams WHERE stream_id = $1';

async function appendStatement(db: pg.Pool | pg.PoolClient, append: StreamAppend): Promise<Appended> {
  const { streamId, expectedVersion, events } = append;
  const kind = expectedVersion === 'any' ? 'any' : expectedVersion === 'no_stream' || expectedVersion === 0 ? 'no_stream' : 'version';
  // prepared once per connection (one text per kind): the planner's work is most of a small append's
  const { rows } = await db.query<{ version: number | null; pos: string | null; tx: string | null; actual: number | null }>({
    name: `forum_append_${kind}`,
    text: `WITH bumped AS (${BUMP[kind]}),
     inserted AS (
       INSERT INTO eventstore.events (stream_id, stream_version, type, data, metadata)
       SELECT $1, b.version - $2 + e.ord, e.type, e.data, e.metadata
       FROM bumped b, unnest($3::text[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS e(type, data, metadata, ord)
       RETURNING global_position, transaction_id
     )
     SELECT (SELECT version FROM bumped) AS version,
            (SELECT max(global_position)::text FROM inserted) AS pos,
            (SELECT max(transaction_id)::text FROM inserted) AS tx,
            (SELECT version FROM eventstore.streams WHERE stream_id = $1) AS actual`,
    values: [
      streamId,
      events.length,
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data)),
      events.map((e) => JSON.stringify(e.metadata)),
      ...(kind === 'version' ? [expectedVersion] : []),
    ],
  });
  const row = rows[0]!;
  if (row.version === null || row.pos === null || row.tx === null) {
    // the statement's snapshot predates a writer it waited for: a fresh statement sees what that writer committed
    const { rows: now } = await db.query<{ version: number }>({ name: 'forum_stream_version', text: STREAM_VERSION, values: [streamId] });
    throw new WrongExpectedVersionError(streamId, expectedVersion, now[0]?.version ?? row.actual ?? 0);
  }
  return { version: row.version, last: { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) } };
}

/**
 * Appends to several streams (each once, expecting a version or no stream) in one statement and
 * one transaction; answers the streams appended to. Existing streams' rows are locked first, in
 * stream order, as every writer takes them (`appendInTransaction`); new streams are inserted in
 * stream order after them. A stream whose expectation fails is left as it is: not among the answers.
 */
async function appendStatements(db: pg.Pool, appends: readonly StreamAppend[]): Promise<Map<string, Appended>> {
  const events = appends.flatMap((append, i) => append.events.map((event, j) => ({ i, j, event })));
  const { rows } = await db.query<{ stream_id: string; version: number; pos: string; tx: string }>({
    name: 'forum_append_batch',
    text: `WITH wanted AS MATERIALIZED (
       SELECT * FROM unnest($1::text[], $2::integer[], $3::integer[]) AS w(stream_id, n, expected)
     ),
     locked AS MATERIALIZED (
       SELECT s.stream_id, s.version FROM eventstore.streams s
       WHERE s.stream_id = ANY ($1::text[]) ORDER BY s.stream_id FOR UPDATE
     ),
     bumped AS (
       UPDATE eventstore.streams s SET version = s.version + w.n
       FROM wanted w JOIN locked l USING (stream_id)
       WHERE s.stream_id = w.stream_id AND w.expected > 0 AND l.version = w.expected
       RETURNING s.stream_id, s.version
     ),
     created AS (
       INSERT INTO eventstore.streams (stream_id, version)
       SELECT w.stream_id, w.n FROM wanted w
       WHERE w.expected = 0 AND NOT EXISTS (SELECT 1 FROM locked l WHERE l.stream_id = w.stream_id)
       ORDER BY w.stream_id
       ON CONFLICT (stream_id) DO NOTHING
       RETURNING stream_id, version
     ),
     done AS (SELECT stream_id, version FROM bumped UNION ALL SELECT stream_id, version FROM created),
     inserted AS (
       INSERT INTO eventstore.events (stream_id, stream_version, type, data, metadata)
       SELECT d.stream_id, d.version - w.n + e.ord, e.type, e.data, e.metadata
       FROM unnest($4::integer[], $5::integer[], $6::text[], $7::jsonb[], $8::jsonb[]) AS e(i, ord, type, data, metadata)
       JOIN wanted w ON w.stream_id = ($1::text[])[e.i]
       JOIN done d ON d.stream_id = w.stream_id
       ORDER BY e.i, e.ord
       RETURNING stream_id, global_position, transaction_id
     )
     SELECT d.stream_id, d.version, max(i.global_position)::text AS pos, max(i.transaction_id)::text AS tx
     FROM done d JOIN inserted i ON i.stream_id = d.stream_id
     GROUP BY d.stream_id, d.version`,
    values: [
      appends.map((a) => a.streamId),
      appends.map((a) => a.events.length),
      appends.map((a) => (a.expectedVersion === 'no_stream' ? 0 : (a.expectedVersion as number))),
      events.map((e) => e.i + 1),
      events.map((e) => e.j + 1),
      events.map((e) => e.event.type),
      events.map((e) => JSON.stringify(e.event.data)),
      events.map((e) => JSON.stringify(e.event.metadata)),
    ],
  });
  return new Map(rows.map((row) => [row.stream_id, { version: row.version, last: { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) } }]));
}

interface EventRow {
  pos: string;
  tx: string;
  stream_id: string;
  stream_version: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

// Positions leave as text (exact), under names that cannot shadow the columns in ORDER BY
const eventColumns = (alias: string, erasedAs = "'placeholder'") =>
  `${alias}global_position::text AS pos, ${alias}transaction_id::text AS tx, ${alias}stream_id, ${alias}stream_version, ${alias}type, ${unsealed(`${alias}data`, erasedAs)} AS data, ${alias}metadata, ${alias}recorded_at`;
const SELECT_EVENTS = `SELECT ${eventColumns('')}
  FROM eventstore.events`;

/**
 * The events after a version of each of several streams, up to a version ($1: their ids, $2: the versions after,
 * $3: the versions up to, $4: how erased fields read, see ErasedAs), each read's by its `ord` (from 1), in stream order.
 */
const READ_STREAMS = `SELECT w.ord, ${eventColumns('e.', 'w.erased_as')}
  FROM unnest($1::text[], $2::integer[], $3::integer[], $4::text[]) WITH ORDINALITY AS w(stream_id, after, up_to, erased_as, ord)
  JOIN eventstore.events e ON e.stream_id = w.stream_id AND e.stream_version > w.after AND e.stream_version <= w.up_to
  ORDER BY w.ord, e.stream_version`;

/** The events after a position in log order, below the oldest transaction still running; at most `limit`. */
const eventsAfter = (tx: string, pos: string, limit: string) => `${SELECT_EVENTS}
  WHERE (transaction_id, global_position) > (${tx}::xid8, ${pos}::bigint)
    AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY events.transaction_id, events.global_position
  LIMIT ${limit}`;
const READ_ALL = eventsAfter('$1::text', '$2', '$3');

/** READ_ALL for several positions at once ($1, $2, $3: their transactions, positions and limits), each read's rows by its `ord` (from 1). */
const READ_ALL_BATCH = `SELECT w.ord, e.* FROM unnest($1::text[], $2::bigint[], $3::integer[]) WITH ORDINALITY AS w(tx, pos, lim, ord)
  CROSS JOIN LATERAL (${eventsAfter('w.tx', 'w.pos', 'w.lim')}) e
  ORDER BY w.ord, e.tx::xid8, e.pos::bigint`;

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

/**
 * Creates the history indexes that are missing; one a crash left half-built (invalid) is built
 * again. Drops a post index of other types. A log with events is indexed CONCURRENTLY, so appends
 * go on while a long log is indexed; an empty one at once, since CONCURRENTLY waits for every older
 * transaction of the database to end (other processes starting beside this one, say).
 */
async function migrateHistoryIndexes(client: pg.PoolClient): Promise<void> {
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

/** Stored rows keep the shape they were written in; readers (folds, projections, subscribers) get the current one. */
function toRecordedEvent(row: EventRow): RecordedEvent {
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

/**
 * The schema lock, asked for again and again rather than waited for in one statement: a waiting
 * statement holds a snapshot, and the holder's CREATE INDEX CONCURRENTLY waits for every older
 * snapshot to end, so two processes starting at once would deadlock.
 */
async function takeSchemaLock(client: pg.PoolClient): Promise<void> {
  for (;;) {
    const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1) AS taken', [SCHEMA_LOCK]);
    if (rows[0]!.taken) return;
    await delay(SCHEMA_LOCK_RETRY_MS);
  }
}

export async function migrateEventStore(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await takeSchemaLock(client);
    const { rows } = await client.query<{ catalogued: boolean }>(`SELECT to_regclass('eventstore.schema_versions') IS NOT NULL AS catalogued`);
    await client.query(`
      CREATE SCHEMA IF NOT EXISTS eventstore;
      CREATE TABLE IF NOT EXISTS eventstore.streams (
        stream_id text PRIMARY KEY,
        version integer NOT NULL CHECK (version > 0)
      );
      CREATE TABLE IF NOT EXISTS eventstore.events (
        global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        stream_id text NOT NULL,
        stream_version integer NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        UNIQUE (stream_id, stream_version)
      );
      CREATE INDEX IF NOT EXISTS events_log_order ON eventstore.events (transaction_id, global_position);
      -- the events of some types in a stretch of positions, without reading the others (a staged
      -- replay reads each type of a range on its own: a range's few deletions, say, among 100k events)
      CREATE INDEX IF NOT EXISTS events_by_type ON eventstore.events (type, global_position);
      CREATE TABLE IF NOT EXISTS eventstore.idempotency_keys (
        key text PRIMARY KEY,
        answer jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `);
    // personal data is sealed as it is written (and the log's one sanctioned rewrite is defined: forbid_change)
    await migrateSealing(client);
    await client.query(`
      CREATE OR REPLACE TRIGGER events_immutable BEFORE UPDATE OR DELETE ON eventstore.events
        FOR EACH ROW EXECUTE FUNCTION eventstore.forbid_change();
      CREATE OR REPLACE TRIGGER events_no_truncate BEFORE TRUNCATE ON eventstore.events
        FOR EACH STATEMENT EXECUTE FUNCTION eventstore.forbid_change();
      -- Each (type, schema version) the log holds, whoever wrote it ('?': no version in the metadata).
      -- A range of the log is found without reading each event's version when none of its types has
      -- a version SQL cannot read. Kept by the statement that inserts the events, so it is committed
      -- with them (or, for a pair another transaction is inserting, before them).
      CREATE TABLE IF NOT EXISTS eventstore.schema_versions (
        type text NOT NULL,
        version text NOT NULL,
        PRIMARY KEY (type, version)
      );
      CREATE OR REPLACE FUNCTION eventstore.catalog_schema_versions() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          ${CATALOGUE_VERSIONS('appended')};
          RETURN NULL;
        END $$;
      CREATE OR REPLACE TRIGGER events_schema_versions AFTER INSERT ON eventstore.events
        REFERENCING NEW TABLE AS appended FOR EACH STATEMENT EXECUTE FUNCTION eventstore.catalog_schema_versions();
      -- a log written before the catalog: catalogued once, behind the trigger's lock on new events
      ${rows[0]!.catalogued ? '' : `${CATALOGUE_VERSIONS('eventstore.events')};`}
    `);
    // events stored before sealing existed are sealed once, behind the lock (other processes wait, then skip it)
    await sealStoredEvents(client);
    await migrateHistoryIndexes(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => {});
    client.release();
  }
}

/**
 * One LISTEN connection per store; wakes every waiting subscriber on NOTIFY.
 * Reconnects after a lost connection (subscribers fall back to polling meanwhile).
 */
class Wakeup {
  private client: pg.Client | null = null;
  private waiters = new Set<() => void>();
  private closed = false;
  private connecting: Promise<void> | null = null;

  constructor(private readonly connectionString: string) {}

  private async connect(): Promise<void> {
    if (this.client || this.closed) return;
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString, application_name: 'forum-eventstore-listen' });
      client.on('notification', () => this.wakeAll());
      client.on('error', () => {
        this.client = null;
        client.end().catch(() => {});
        this.wakeAll();
      });
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      this.client = client;
    })().finally(() => {
      this.connecting = null;
    });
    await this.connecting;
  }

  wakeAll() {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves on the next NOTIFY, after `timeoutMs`, or when `abort` fires. */
  async wait(timeoutMs: number, abort: AbortSignal): Promise<void> {
    await this.connect().catch(() => {});
    if (abort.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        abort.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      abort.addEventListener('abort', done, { once: true });
    });
  }

  async close() {
    this.closed = true;
    this.wakeAll();
    await this.connecting?.catch(() => {});
    await this.client?.end().catch(() => {});
    this.client = null;
  }
}

function runSubscription(
  store: EventStore,
  pool: pg.Pool,
  wake: Wakeup,
  pollIntervalMs: number,
  options: SubscribeOptions,
): Subscription {
  const abort = new AbortController();
  const batchSize = options.batchSize ?? 500;
  const done = (async () => {
    let position = options.after;
    let backoff = 5;
    while (!abort.signal.aborted) {
      const events = await store.readAll(position, batchSize);
      if (events.length > 0) {
        await options.onBatch(events);
        position = events.at(-1)!.position;
        backoff = 5;
        continue;
      }
      // Nothing below the horizon. If newer events exist, a transaction that began
      // earlier is still open and holds them back: look again shortly, since its
      // end may bring no NOTIFY (it may write no event at all).
      if (await eventsBeyond(pool, position)) {
        await abortableSleep(backoff, abort.signal);
        backoff = Math.min(backoff * 2, 200);
      } else {
        await wake.wait(pollIntervalMs, abort.signal);
      }
    }
  })();
  done.catch(() => {});
  return {
    done,
    async stop() {
      abort.abort();
      await done.catch(() => {});
    },
  };
}

async function eventsBeyond(pool: pg.Pool, position: LogPosition): Promise<boolean> {
  const { rows } = await pool.query<{ exists: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM eventstore.events WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)) AS exists`,
    [position.transactionId.toString(), position.globalPosition.toString()],
  );
  return rows[0]?.exists ?? false;
}

