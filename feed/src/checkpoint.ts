import { compareLogPositions, positionToken, START, type LogPosition } from '@forum/contracts';
import { advisoryLockHeldSql, advisoryLockIs } from '@forum/platform';
import type pg from 'pg';

/** Where the checkpoint's statements run: a pool, a client, the relay's lock session. */
export interface Queryable {
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/**
 * The first half of the key of every feed's advisory lock (`pg_try_advisory_lock(FEED_LOCK_CLASS,
 * hashtext(name))`); the projection runners' locks are another class.
 */
export const FEED_LOCK_CLASS = 4243;

/** How the relays' lock sessions show in pg_stat_activity: one name per feed, so `forumctl status` counts them. */
export const feedSessionName = (name: string) => `forum-feed:${name}`;

/**
 * The relay's checkpoint: one row per relay (by name) in PostgreSQL, as the projections keep
 * theirs: the log position of the last event the broker acknowledged, and how many events it has
 * acknowledged in all. Numbers, not xid8: the position is the event store's, whichever adapter
 * gives it. One statement (one transaction) under a lock of its own: relays that start together
 * do not race to create the schema. The feed's row is there from its relay's first start (at the
 * start of the log), so that `forumctl status` shows a feed that has published nothing yet.
 */
export async function migrateFeedCheckpoints(db: Queryable, name: string): Promise<void> {
  await db.query(`
    SELECT pg_advisory_xact_lock(${FEED_LOCK_CLASS}, 0);
    CREATE SCHEMA IF NOT EXISTS feed;
    CREATE TABLE IF NOT EXISTS feed.checkpoints (
      name text PRIMARY KEY,
      tx numeric(20) NOT NULL DEFAULT 0,
      pos numeric(20) NOT NULL DEFAULT 0,
      published bigint NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  await db.query('INSERT INTO feed.checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [name]);
}

export interface FeedCheckpoint {
  readonly position: LogPosition;
  /** Events acknowledged by the broker in all (a duplicate sent again after a restart counts again). */
  readonly published: bigint;
  readonly updatedAt: Date | null;
}

/** The relay's checkpoint; the start of the log for a relay that has published nothing. */
export async function readFeedCheckpoint(db: Queryable, name: string): Promise<FeedCheckpoint> {
  const { rows } = await db.query<{ tx: string; pos: string; published: string; updated_at: Date }>(
    'SELECT tx::text AS tx, pos::text AS pos, published::text AS published, updated_at FROM feed.checkpoints WHERE name = $1',
    [name],
  );
  const row = rows[0];
  if (!row) return { position: START, published: 0n, updatedAt: null };
  return { position: { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) }, published: BigInt(row.published), updatedAt: row.updated_at };
}

/**
 * Moves the checkpoint to `position` after the broker acknowledged `count` more events, in one
 * statement that runs only while `session` holds the feed's lock: false (and nothing written) when
 * it does not. A relay whose lock session was cut, and that connected again without knowing, finds
 * it has no lock here and stops. Never backwards either.
 */
export async function advanceFeedCheckpoint(session: Queryable, name: string, position: LogPosition, count: number): Promise<boolean> {
  const { rows } = await session.query<{ held: boolean }>(
    `WITH lock AS (SELECT ${advisoryLockHeldSql('$5::integer', '$1::text')} AS held),
     moved AS (
       INSERT INTO feed.checkpoints AS c (name, tx, pos, published) SELECT $1, $2, $3, $4 FROM lock WHERE held
       ON CONFLICT (name) DO UPDATE SET tx = excluded.tx, pos = excluded.pos, published = c.published + excluded.published, updated_at = now()
       WHERE (c.tx, c.pos) < (excluded.tx, excluded.pos))
     SELECT held FROM lock`,
    [name, position.transactionId.toString(), position.globalPosition.toString(), count, FEED_LOCK_CLASS],
  );
  return rows[0]?.held === true;
}

/** One feed as `forumctl status` shows it. */
export interface FeedStatus {
  readonly name: string;
  /** The position of the last event the broker acknowledged (`<transaction>.<position>`). */
  readonly checkpoint: string;
  /** The log's highest position. */
  readonly head: string;
  /** About how many events the feed is behind: 0 exactly when it has published the log's last event in log order. */
  readonly lag: number;
  readonly published: string;
  readonly updatedAt: string;
  /** The session that holds the feed's lock (the relay that publishes), or null: no relay publishes. */
  readonly relay: { readonly pid: number; readonly address: string | null } | null;
  /** Relays connected and standing by. */
  readonly standbys: number;
}

/**
 * Every feed's checkpoint against the head of the log (the PostgreSQL event store's), with the
 * relay that holds its lock; null when no feed ever ran on this database (no `feed.checkpoints`).
 * Reads only: it works on a standby too.
 */
export async function feedStatus(db: Queryable): Promise<FeedStatus[] | null> {
  const { rows: exists } = await db.query<{ table: string | null }>(`SELECT to_regclass('feed.checkpoints')::text AS table`);
  if (!exists[0]?.table) return null;
  const { rows } = await db.query<{
    name: string;
    tx: string;
    pos: string;
    published: string;
    updated_at: Date;
    head: string | null;
    last_tx: string | null;
    last_pos: string | null;
    holder: number | null;
    address: string | null;
    standbys: number;
  }>(
    `SELECT c.name, c.tx::text AS tx, c.pos::text AS pos, c.published::text AS published, c.updated_at,
            (SELECT max(global_position) FROM eventstore.events)::text AS head, last.tx AS last_tx, last.pos AS last_pos,
            holder.pid AS holder, holder.address,
            (SELECT count(*)::integer FROM pg_stat_activity a
             WHERE a.datname = current_database() AND a.application_name = $2 || c.name AND a.pid IS DISTINCT FROM holder.pid) AS standbys
     FROM feed.checkpoints c
     LEFT JOIN (SELECT transaction_id::text AS tx, global_position::text AS pos FROM eventstore.events
                ORDER BY transaction_id DESC, global_position DESC LIMIT 1) last ON true
     LEFT JOIN LATERAL (
       SELECT l.pid, host(a.client_addr) AS address FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND ${advisoryLockIs('$1::integer', 'c.name')} LIMIT 1) holder ON true
     ORDER BY c.name`,
    [FEED_LOCK_CLASS, feedSessionName('')],
  );
  return rows.map((row) => {
    const checkpoint = { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) };
    const head = BigInt(row.head ?? '0');
    const last = row.last_tx && row.last_pos ? { transactionId: BigInt(row.last_tx), globalPosition: BigInt(row.last_pos) } : null;
    const behind = last !== null && compareLogPositions(checkpoint, last) < 0;
    return {
      name: row.name,
      checkpoint: positionToken(checkpoint),
      head: head.toString(),
      lag: behind ? Math.max(1, Number(head - checkpoint.globalPosition)) : 0,
      published: row.published,
      updatedAt: row.updated_at.toISOString(),
      relay: row.holder === null ? null : { pid: row.holder, address: row.address },
      standbys: row.standbys,
    };
  });
}
