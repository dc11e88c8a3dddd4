import { compareLogPositions, positionToken, START, type LogPosition } from '@forum/contracts';
import { inSpan, isDatabaseUnavailable, type Metrics } from '@forum/platform';
import type { Span } from '@opentelemetry/api';
import DataLoader from 'dataloader';
import type pg from 'pg';
import { ONE_TURN } from './notifier.ts';
import type { AppendOutcome, AppendResult, EventStore, IdempotentAppend, StreamAppend } from './types.ts';
import { WrongExpectedVersionError } from './types.ts';

const DEADLOCK_DETECTED = '40P01';

export interface AppendOptions {
  /** Tests only: runs inside every writing transaction, just before COMMIT. */
  beforeCommit?: (appends: readonly StreamAppend[]) => Promise<void>;
  /** After each commit that appended. */
  committed: () => void;
  /** The process's metrics: appends, their events and the group commits' sizes are counted into them. */
  metrics?: Metrics | undefined;
}

/** The store's appends, on the pool: one-stream appends by group commit, the others in a transaction of their own. */
export function createAppends(pool: pg.Pool, options: AppendOptions): Pick<EventStore, 'append' | 'appendIdempotent' | 'idempotentAnswer'> {
  const { metrics } = options;
  /** After a commit: the metrics count it, then `options.committed` is told. */
  const committed = (mode: 'group' | 'transaction', appends: readonly StreamAppend[]) => {
    if (metrics) {
      metrics.appends.inc({ mode });
      metrics.appendedEvents.inc(appends.reduce((sum, append) => sum + append.events.length, 0));
    }
    options.committed();
  };

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

  /** A statement PostgreSQL ended to break a deadlock (a keyed append against a transaction holding its key) is tried again. */
  async function retriedOnDeadlock<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt >= 3) throw error;
      }
    }
  }

  async function inTransactionOnce<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let lost: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // a session that did not answer (or was cut) is not used again: its transaction's fate is the server's
      if (isDatabaseUnavailable(error)) lost = error as Error;
      else await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release(lost);
    }
  }

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
      metrics?.groupCommitSize.observe(wanted.length);
      if (wanted.length === 1) return [await appendStatement(pool, wanted[0]!).catch((error: Error) => error)];
      const answers: (Appended | Error | undefined)[] = wanted.map(() => undefined);
      const batched = new Map<string, number>();
      wanted.forEach((append, i) => {
        if (append.expectedVersion !== 'any' && !batched.has(append.streamId)) batched.set(append.streamId, i);
      });
      if (batched.size > 1) {
        try {
          const together = [...batched.values()].map((i) => wanted[i]!);
          for (const [streamId, appended] of await groupCommitSpan(together, () => appendStatements(pool, together)))
            answers[batched.get(streamId)!] = appended;
        } catch (error) {
          // each on its own below, unless the database did not answer: then none would (one wait, not one per append)
          if (isDatabaseUnavailable(error)) return wanted.map(() => error as Error);
        }
      }
      for (const [i, append] of wanted.entries()) answers[i] ??= await appendStatement(pool, append).catch((error: Error) => error);
      return answers as (Appended | Error)[];
    },
    { ...ONE_TURN, maxBatchSize: 200 },
  );

  async function idempotentAnswer<Answer>(key: string): Promise<Answer | null> {
    const { rows } = await pool.query<{ answer: Answer | null }>('SELECT answer FROM eventstore.idempotency_keys WHERE key = $1', [key]);
    return rows[0]?.answer ?? null;
  }

  return {
    append: (appends) =>
      appendSpan(appends, false, async (span) => {
        let result: AppendResult;
        const single = appends.filter((a) => a.events.length > 0);
        const grouped = single.length === 1 && !options.beforeCommit;
        if (grouped) {
          // The common case: one stream, no round trip while it holds locks, committed with the
          // other commands' appends of the moment
          if (span.isRecording()) groupCommitted.set(single[0]!, span);
          const appended = await oneStreamAppends.load(single[0]!);
          result = { versions: { [single[0]!.streamId]: appended.version }, lastPosition: appended.last };
        } else {
          result = await inTransaction((client) => appendInTransaction(client, appends));
        }
        committed(grouped ? 'group' : 'transaction', appends);
        return appendedAt(span, result);
      }),

    appendIdempotent: <Answer>(appends: readonly StreamAppend[], idempotency: IdempotentAppend<Answer>): Promise<AppendOutcome<Answer>> =>
      appendSpan(appends, true, async (span) => {
        const single = appends.filter((a) => a.events.length > 0);
        const { positionAt } = idempotency;
        try {
          if (positionAt && !idempotency.beforeAppend && single.length === 1 && !options.beforeCommit) {
            // the key, the events and the answer in one statement: one round trip, one commit
            const keyed = { key: idempotency.key, answer: JSON.stringify(idempotency.answer(UNKNOWN_RESULT)), positionAt };
            const appended = await retriedOnDeadlock(() => appendStatement(pool, single[0]!, keyed));
            const result = { versions: { [single[0]!.streamId]: appended.version }, lastPosition: appended.last };
            committed('transaction', appends);
            appendedAt(span, result);
            return { duplicate: false, result, answer: appended.answer as Answer };
          }
          return await inTransaction(async (client) => {
            // Taken first: a concurrent call with the same key waits here until this one ends
            await client.query('INSERT INTO eventstore.idempotency_keys (key) VALUES ($1)', [idempotency.key]);
            await idempotency.beforeAppend?.();
            const result = await appendInTransaction(client, appends);
            const answer = idempotency.answer(result);
            await client.query('UPDATE eventstore.idempotency_keys SET answer = $2 WHERE key = $1', [idempotency.key, JSON.stringify(answer)]);
            return { duplicate: false as const, result, answer };
          }).then((outcome) => {
            committed('transaction', appends);
            appendedAt(span, outcome.result);
            return outcome;
          });
        } catch (error) {
          if ((error as { code?: string }).code !== '23505' || (error as { constraint?: string }).constraint !== 'idempotency_keys_pkey') throw error;
          const answer = await idempotentAnswer<Answer>(idempotency.key);
          if (answer === null) throw error;
          if (span.isRecording()) span.setAttribute('forum.append.duplicate', true);
          return { duplicate: true, answer };
        }
      }),

    idempotentAnswer,
  };
}

/**
 * The span of one append (docs/operations.md#traces): its streams and events, the position of its
 * last event once it is in; a version conflict is an outcome (the command decides again), not a failure.
 */
function appendSpan<T>(appends: readonly StreamAppend[], idempotent: boolean, work: (span: Span) => Promise<T>): Promise<T> {
  return inSpan(
    'eventstore append',
    {
      attributes: () => ({
        'db.system.name': 'postgresql',
        'forum.append.streams': appends.filter((a) => a.events.length > 0).length,
        'forum.append.events': appends.reduce((n, a) => n + a.events.length, 0),
        ...(idempotent && { 'forum.append.idempotent': true }),
      }),
      refusal: (error) => (error instanceof WrongExpectedVersionError ? 'WRONG_EXPECTED_VERSION' : undefined),
    },
    work,
  );
}

function appendedAt(span: Span, result: AppendResult): AppendResult {
  if (span.isRecording()) span.setAttribute('forum.event.position', positionToken(result.lastPosition));
  return result;
}

/** The spans of the one-stream appends waiting for a group commit, by their append (a traced append's only). */
const groupCommitted = new WeakMap<StreamAppend, Span>();

/**
 * The span of a group commit: one statement for the appends of several commands (each in a trace of
 * its own), so a trace of its own, linked to each append's span and each of those to it.
 */
function groupCommitSpan<T>(appends: readonly StreamAppend[], work: () => Promise<T>): Promise<T> {
  const waiting = appends.flatMap((append) => groupCommitted.get(append) ?? []);
  return inSpan(
    'eventstore group commit',
    {
      parent: 'root',
      attributes: () => ({ 'db.system.name': 'postgresql', 'forum.append.streams': appends.length }),
      links: () => waiting.map((span) => ({ context: span.spanContext() })),
    },
    async (span) => {
      if (span.isRecording()) for (const appended of waiting) appended.addLink({ context: span.spanContext() });
      return work();
    },
  );
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
  /** The idempotency key's answer as written (a keyed append's). */
  readonly answer?: unknown;
}

/** An idempotency key written with the events: the answer as JSON, its last event's position to be written at `positionAt`. */
interface Keyed {
  readonly key: string;
  readonly answer: string;
  readonly positionAt: readonly string[];
}

/** The result an answer is worked out with before the append (`IdempotentAppend.positionAt`): its position is written in afterwards. */
const UNKNOWN_RESULT: AppendResult = { versions: {}, lastPosition: START };

const STREAM_VERSION = 'SELECT version FROM eventstore.streams WHERE stream_id = $1';

/**
 * A keyed append's last part: the key with its answer, the position of the last event written in
 * where the answer has one (a key used already fails the statement: idempotency_keys_pkey, and
 * nothing of it is written).
 */
const KEYED = (first: number) => `,
     last AS (SELECT max(global_position)::text AS pos, max(transaction_id)::text AS tx FROM inserted),
     keyed AS (
       INSERT INTO eventstore.idempotency_keys (key, answer)
       SELECT $${first}, CASE WHEN $${first + 1}::jsonb #> $${first + 2}::text[] IS NULL THEN $${first + 1}::jsonb
                         ELSE jsonb_set($${first + 1}::jsonb, $${first + 2}::text[], to_jsonb(l.tx || '.' || l.pos)) END
       FROM last l WHERE l.pos IS NOT NULL
       RETURNING answer
     )`;

async function appendStatement(db: pg.Pool | pg.PoolClient, append: StreamAppend, keyed?: Keyed): Promise<Appended> {
  const { streamId, expectedVersion, events } = append;
  const kind = expectedVersion === 'any' ? 'any' : expectedVersion === 'no_stream' || expectedVersion === 0 ? 'no_stream' : 'version';
  const values = [
    streamId,
    events.length,
    events.map((e) => e.type),
    events.map((e) => JSON.stringify(e.data)),
    events.map((e) => JSON.stringify(e.metadata)),
    ...(kind === 'version' ? [expectedVersion] : []),
  ];
  // prepared once per connection (one text per kind): the planner's work is most of a small append's
  const { rows } = await db.query<{ version: number | null; pos: string | null; tx: string | null; actual: number | null; answer?: unknown }>({
    name: `forum_append_${kind}${keyed ? '_keyed' : ''}`,
    text: `WITH bumped AS (${BUMP[kind]}),
     inserted AS (
       INSERT INTO eventstore.events (stream_id, stream_version, type, data, metadata)
       SELECT $1, b.version - $2 + e.ord, e.type, e.data, e.metadata
       FROM bumped b, unnest($3::text[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS e(type, data, metadata, ord)
       RETURNING global_position, transaction_id
     )${keyed ? KEYED(values.length + 1) : ''}
     SELECT (SELECT version FROM bumped) AS version,
            (SELECT max(global_position)::text FROM inserted) AS pos,
            (SELECT max(transaction_id)::text FROM inserted) AS tx,
            (SELECT version FROM eventstore.streams WHERE stream_id = $1) AS actual${keyed ? ',\n            (SELECT answer FROM keyed) AS answer' : ''}`,
    values: keyed ? [...values, keyed.key, keyed.answer, keyed.positionAt] : values,
  });
  const row = rows[0]!;
  if (row.version === null || row.pos === null || row.tx === null) {
    // the statement's snapshot predates a writer it waited for: a fresh statement sees what that writer committed
    const { rows: now } = await db.query<{ version: number }>({ name: 'forum_stream_version', text: STREAM_VERSION, values: [streamId] });
    throw new WrongExpectedVersionError(streamId, expectedVersion, now[0]?.version ?? row.actual ?? 0);
  }
  return { version: row.version, last: { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) }, ...(keyed && { answer: row.answer }) };
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
