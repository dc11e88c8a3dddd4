import type { Knex } from 'knex';
import type pg from 'pg';
import type { PoolUse } from './metrics.ts';

/** A pg pool's connections (Metrics.watchPool). */
export const pgPoolUse =
  (pool: pg.Pool): (() => PoolUse) =>
  () => ({
    used: pool.totalCount - pool.idleCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max ?? 10,
  });

/** What knex's client (typed `any` by knex) holds: its tarn pool, made with the client. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  readonly max: number;
}

/** A knex's pool's connections (Metrics.watchPool); all zero once it is destroyed. */
export const knexPoolUse =
  (db: Knex): (() => PoolUse) =>
  () => {
    const pool = (db.client as { pool?: TarnPool | null }).pool;
    if (!pool) return { used: 0, idle: 0, waiting: 0, max: 0 };
    return { used: pool.numUsed(), idle: pool.numFree(), waiting: pool.numPendingAcquires(), max: pool.max };
  };
