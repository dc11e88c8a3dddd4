import type { WriteKind, WriteLimit, WriteWindow } from '@forum/contracts';
import type { Knex, Logger, Metrics } from '@forum/platform';
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import type { WriteLimits } from '../domain/limits.ts';
import { windowedLimits, windowsOf } from './windows.ts';

declare module 'rate-limiter-flexible' {
  interface RateLimiterStoreAbstract {
    /** How long a key (as stored: with its prefix) is still refused from this process's memory, ms; 0 when it is not. */
    getInMemoryBlockMsBeforeExpire(rlKey: string): number;
  }
}

const SCHEMA = 'write_limits';
const TABLE = 'counters';
const MIGRATION_LOCK = 7_243_927;
/** Rows of windows that ended this long ago are deleted, every CLEANUP_EVERY_MS. */
const KEEP_ENDED_MS = 60 * 60_000;
const CLEANUP_EVERY_MS = 5 * 60_000;

export interface PostgresWriteLimits extends WriteLimits {
  close(): Promise<void>;
}

/**
 * The write limits, counted in PostgreSQL by rate-limiter-flexible, so every command-service
 * process on one database enforces one limit. Each kind has two fixed windows (contracts'
 * WRITE_LIMITS); a write is taken from both in one round trip (two upserts side by side), and
 * given back to both when either refuses, so a refused request spends nothing.
 *
 * What spares the database: a key refused once is refused from this process's memory until its
 * window ends (inMemoryBlockOnConsumed), so a flood past the limit costs no statement; the
 * counters' table is UNLOGGED (no WAL flush for a count; a crash of PostgreSQL empties it, which
 * only restarts the windows). If PostgreSQL fails a count, an in-memory limiter of the same numbers
 * counts instead (insuranceLimiter): per process, but never unlimited and never a failed write.
 *
 * The counts run on `db`'s connections (the service's knex), not on a pool of their own.
 */
export async function createPostgresWriteLimits(options: {
  db: Knex;
  limits: Readonly<Record<WriteKind, WriteLimit>>;
  logger: Logger;
  /** The process's metrics: refusals are counted by kind (forum_write_limit_refusals_total). */
  metrics?: Metrics;
}): Promise<PostgresWriteLimits> {
  const { db, logger, metrics } = options;
  await migrate(db);
  // the store's failures are logged here; the library then counts in the insurance limiter
  const store = {
    query: (query: pg.QueryConfig) =>
      queryOn(db, query).catch((error: unknown) => {
        logger.warn({ err: error }, 'write limits: PostgreSQL failed a count; counting in this process until it answers');
        throw error;
      }),
  };
  const windows = windowsOf(options.limits, (prefix, window) => counter(store, prefix, window));
  const cleanup = setInterval(() => {
    db.raw(`DELETE FROM ${SCHEMA}.${TABLE} WHERE expire < ?`, [Date.now() - KEEP_ENDED_MS]).catch((error: unknown) =>
      logger.warn({ err: error }, 'write limits: cleanup failed'),
    );
  }, CLEANUP_EVERY_MS);
  cleanup.unref();

  const limits = windowedLimits(windows, {
    // a key refused once is refused from this process's memory until its window ends: no statement
    blockedMs: (window, key) => window.getInMemoryBlockMsBeforeExpire(window.getKey(key)),
    onGiveBackFailed: (error) => logger.warn({ err: error }, 'write limits: could not give a write back'),
    ...(metrics && { onRefused: (kind: WriteKind) => metrics.writeLimitRefusals.inc({ kind }) }),
  });
  return {
    take: (kind, of) => limits.take(kind, of),
    close() {
      clearInterval(cleanup);
      return Promise.resolve();
    },
  };
}

function counter(store: { query: (query: pg.QueryConfig) => Promise<pg.QueryResult> }, prefix: string, window: WriteWindow): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: store,
    storeType: 'pool',
    schemaName: SCHEMA,
    tableName: TABLE,
    tableCreated: true, // by migrate()
    clearExpiredByTimeout: false, // one cleanup for the table, not one per counter
    keyPrefix: prefix,
    points: window.points,
    duration: window.seconds,
    // the first refusal keeps the key refused in memory until its window ends
    inMemoryBlockOnConsumed: window.points + 1,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: prefix, points: window.points, duration: window.seconds }),
  });
}

/**
 * One of rate-limiter-flexible's statements on a connection of `db`'s pool, as its 'knex' store
 * runs them (pg's query config, so its named statements stay prepared per connection).
 */
async function queryOn(db: Knex, query: pg.QueryConfig): Promise<pg.QueryResult> {
  const pool = db.client as ConnectionPool;
  const connection = await pool.acquireConnection();
  try {
    return await connection.query(query);
  } finally {
    await pool.releaseConnection(connection);
  }
}

/** What knex's client (typed `any` by knex) lends: its pool's pg connections. */
interface ConnectionPool {
  acquireConnection(): Promise<pg.PoolClient>;
  releaseConnection(connection: pg.PoolClient): Promise<void>;
}

/** rate-limiter-flexible's PostgreSQL layout, made once by whichever process starts first. */
async function migrate(db: Knex): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
    await trx.raw(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    await trx.raw(`CREATE UNLOGGED TABLE IF NOT EXISTS ${SCHEMA}.${TABLE} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`);
  });
}
