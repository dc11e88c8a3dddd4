import { START, type LogPosition } from '@forum/contracts';
import type pg from 'pg';

/**
 * The relay's checkpoint: one row per relay (by name) in PostgreSQL, as the projections keep
 * theirs: the log position of the last event the broker acknowledged, and how many events it has
 * acknowledged in all. Numbers, not xid8: the position is the event store's, whichever adapter
 * gives it.
 */
export async function migrateFeedCheckpoints(db: pg.Pool): Promise<void> {
  await db.query(`
    CREATE SCHEMA IF NOT EXISTS feed;
    CREATE TABLE IF NOT EXISTS feed.checkpoints (
      name text PRIMARY KEY,
      tx numeric(20) NOT NULL DEFAULT 0,
      pos numeric(20) NOT NULL DEFAULT 0,
      published bigint NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
}

export interface FeedCheckpoint {
  readonly position: LogPosition;
  /** Events acknowledged by the broker in all (a duplicate sent again after a restart counts again). */
  readonly published: bigint;
  readonly updatedAt: Date | null;
}

/** The relay's checkpoint; the start of the log for a relay that has published nothing. */
export async function readFeedCheckpoint(db: pg.Pool, name: string): Promise<FeedCheckpoint> {
  const { rows } = await db.query<{ tx: string; pos: string; published: string; updated_at: Date }>(
    'SELECT tx::text AS tx, pos::text AS pos, published::text AS published, updated_at FROM feed.checkpoints WHERE name = $1',
    [name],
  );
  const row = rows[0];
  if (!row) return { position: START, published: 0n, updatedAt: null };
  return { position: { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) }, published: BigInt(row.published), updatedAt: row.updated_at };
}

/**
 * Moves the checkpoint to `position` after the broker acknowledged `count` more events. Never
 * backwards: a second relay under the same name (which only sends duplicates) cannot undo the
 * first one's progress.
 */
export async function advanceFeedCheckpoint(db: pg.Pool, name: string, position: LogPosition, count: number): Promise<void> {
  await db.query(
    `INSERT INTO feed.checkpoints AS c (name, tx, pos, published) VALUES ($1, $2, $3, $4)
     ON CONFLICT (name) DO UPDATE SET tx = excluded.tx, pos = excluded.pos, published = c.published + excluded.published, updated_at = now()
     WHERE (c.tx, c.pos) < (excluded.tx, excluded.pos)`,
    [name, position.transactionId.toString(), position.globalPosition.toString(), count],
  );
}
