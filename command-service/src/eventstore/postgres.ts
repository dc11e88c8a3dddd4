import { compareLogPositions, START, type EventMetadata, type LogPosition } from '@forum/contracts';
import pg from 'pg';
import type {
  AppendOutcome,
  AppendResult,
  EventStore,
  IdempotentAppend,
  RecordedEvent,
  StreamAppend,
  StreamRead,
  SubscribeOptions,
  Subscription,
} from './types.ts';
import { WrongExpectedVersionError } from './types.ts';

export const EVENTS_CHANNEL = 'forum_events';

export interface PostgresEventStoreOptions {
  connectionString: string;
  poolSize?: number;
  /** How long an idle subscriber waits for a NOTIFY before it looks anyway. */
  pollIntervalMs?: number;
  /** Tests only: runs inside every writing transaction, just before COMMIT. */
  beforeCommit?: (appends: readonly StreamAppend[]) => Promise<void>;
}

const SCHEMA_LOCK = 7_243_901;

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
  const pollIntervalMs = options.pollIntervalMs ?? 1000;

  async function appendInTransaction(
    client: pg.PoolClient,
    appends: readonly StreamAppend[],
  ): Promise<AppendResult> {
    const versions: Record<string, number> = {};
    let lastPosition = START;
    // One lock order for every writer, so multi-stream appends never deadlock each other
    const ordered = [...appends].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
    for (const append of ordered) {
      if (append.events.length === 0) continue;
      const count = append.events.length;
      const next = await bumpStreamVersion(client, append, count);
      const first = next - count + 1;
      const inserted = await client.query<{ pos: string; tx: string }>(
        `INSERT INTO eventstore.events (stream_id, stream_version, type, data, metadata)
         SELECT $1, v, t, d, m FROM unnest($2::int[], $3::text[], $4::jsonb[], $5::jsonb[]) AS e(v, t, d, m)
         RETURNING global_position::text AS pos, transaction_id::text AS tx`,
        [
          append.streamId,
          append.events.map((_, i) => first + i),
          append.events.map((e) => e.type),
          append.events.map((e) => JSON.stringify(e.data)),
          append.events.map((e) => JSON.stringify(e.metadata)),
        ],
      );
      versions[append.streamId] = next;
      for (const row of inserted.rows) {
        const position = { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) };
        if (compareLogPositions(position, lastPosition) > 0) lastPosition = position;
      }
    }
    if (compareLogPositions(lastPosition, START) === 0) throw new Error('An append needs at least one event');
    await client.query(`SELECT pg_notify('${EVENTS_CHANNEL}', '')`);
    if (options.beforeCommit) await options.beforeCommit(appends);
    return { versions, lastPosition };
  }

  async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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

  const store: EventStore = {
    append(appends) {
      return inTransaction((client) => appendInTransaction(client, appends));
    },

    async appendIdempotent<Answer>(appends: readonly StreamAppend[], idempotency: IdempotentAppend<Answer>): Promise<AppendOutcome<Answer>> {
      try {
        return await inTransaction(async (client) => {
          // Taken first: a concurrent call with the same key waits here until this one ends
          await client.query('INSERT INTO eventstore.idempotency_keys (key) VALUES ($1)', [idempotency.key]);
          const result = await appendInTransaction(client, appends);
          const answer = idempotency.answer(result);
          await client.query('UPDATE eventstore.idempotency_keys SET answer = $2 WHERE key = $1', [
            idempotency.key,
            JSON.stringify(answer),
          ]);
          return { duplicate: false as const, result, answer };
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

    async readStream(streamId: string): Promise<StreamRead> {
      const { rows } = await pool.query<EventRow>(`${SELECT_EVENTS} WHERE stream_id = $1 ORDER BY events.stream_version`, [streamId]);
      const events = rows.map(toRecordedEvent);
      return { version: events.at(-1)?.streamVersion ?? 0, events };
    },

    async readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
      const { rows } = await pool.query<EventRow>(
        `${SELECT_EVENTS}
         WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
           AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
         ORDER BY events.transaction_id, events.global_position
         LIMIT $3`,
        [after.transactionId.toString(), after.globalPosition.toString(), limit],
      );
      return rows.map(toRecordedEvent);
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

    async close() {
      await wake.close();
      await pool.end();
    },
  };
  return store;
}

async function bumpStreamVersion(client: pg.PoolClient, append: StreamAppend, count: number): Promise<number> {
  const { streamId, expectedVersion } = append;
  let rows: { version: number }[];
  if (expectedVersion === 'any') {
    ({ rows } = await client.query(
      `INSERT INTO eventstore.streams (stream_id, version) VALUES ($1, $2)
       ON CONFLICT (stream_id) DO UPDATE SET version = eventstore.streams.version + EXCLUDED.version
       RETURNING version`,
      [streamId, count],
    ));
  } else if (expectedVersion === 'no_stream' || expectedVersion === 0) {
    ({ rows } = await client.query(
      `INSERT INTO eventstore.streams (stream_id, version) VALUES ($1, $2) ON CONFLICT (stream_id) DO NOTHING RETURNING version`,
      [streamId, count],
    ));
  } else {
    ({ rows } = await client.query(
      `UPDATE eventstore.streams SET version = version + $3 WHERE stream_id = $1 AND version = $2 RETURNING version`,
      [streamId, expectedVersion, count],
    ));
  }
  const row = rows[0];
  if (row) return row.version;
  const current = await client.query<{ version: number }>('SELECT version FROM eventstore.streams WHERE stream_id = $1', [streamId]);
  throw new WrongExpectedVersionError(streamId, expectedVersion, current.rows[0]?.version ?? 0);
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
const SELECT_EVENTS = `SELECT global_position::text AS pos, transaction_id::text AS tx, stream_id, stream_version, type, data, metadata, recorded_at
  FROM eventstore.events`;

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    position: { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) },
    recordedAt: row.recorded_at,
  };
}

export async function migrateEventStore(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK]);
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
      CREATE TABLE IF NOT EXISTS eventstore.idempotency_keys (
        key text PRIMARY KEY,
        answer jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- The log is append-only: no UPDATE, DELETE or TRUNCATE of events, by anyone.
      CREATE OR REPLACE FUNCTION eventstore.forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'events are immutable'; END $$;
      CREATE OR REPLACE TRIGGER events_immutable BEFORE UPDATE OR DELETE ON eventstore.events
        FOR EACH ROW EXECUTE FUNCTION eventstore.forbid_change();
      CREATE OR REPLACE TRIGGER events_no_truncate BEFORE TRUNCATE ON eventstore.events
        FOR EACH STATEMENT EXECUTE FUNCTION eventstore.forbid_change();
    `);
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

  private wakeAll() {
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
        await sleep(backoff, abort.signal);
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
