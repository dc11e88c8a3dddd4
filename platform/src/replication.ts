import type { Knex } from './db.ts';

/** How far a hot standby is behind its primary, as the standby sees it. */
export interface StandbyStatus {
  /** Whether the database is a standby at all (false: a primary, nothing replays there). */
  readonly standby: boolean;
  /** Whether its WAL receiver streams from the primary now. */
  readonly streaming: boolean;
  /** Whether replay is paused (pg_wal_replay_pause()): reads see an older state until it resumes. */
  readonly replayPaused: boolean;
  /** WAL received but not replayed yet, in bytes. */
  readonly replayBacklogBytes: number;
  /**
   * How old the newest change its reads see may be: 0 when it has replayed all it received, else
   * the time since the primary committed the last transaction it replayed. (A standby that does
   * not receive cannot know how far behind it is: see `streaming`.)
   */
  readonly lagMs: number;
}

/**
 * The standby's own view of its lag (PostgreSQL's recovery information functions and
 * pg_stat_wal_receiver): needs no connection to the primary. On a primary: standby false, no lag.
 */
export async function standbyStatus(db: Knex): Promise<StandbyStatus> {
  const { rows } = await db.raw<{ rows: { standby: boolean; streaming: boolean; paused: boolean | null; backlog: string | null; lag_ms: string | null }[] }>(
    `SELECT pg_is_in_recovery() AS standby,
            EXISTS (SELECT FROM pg_stat_wal_receiver WHERE status = 'streaming') AS streaming,
            CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() END AS paused,
            pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn())::bigint::text AS backlog,
            CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                 ELSE floor(extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000) END::bigint::text AS lag_ms`,
  );
  const row = rows[0]!;
  return {
    standby: row.standby,
    streaming: row.streaming,
    replayPaused: row.paused === true,
    replayBacklogBytes: Math.max(0, Number(row.backlog ?? 0)),
    lagMs: Math.max(0, Number(row.lag_ms ?? 0)),
  };
}

/** A standby as its primary sees it (pg_stat_replication). */
export interface ReplicaOfPrimary {
  /** Its application_name (the forum's replicas: the slot's name). */
  readonly name: string;
  readonly address: string | null;
  /** startup, catchup, streaming, backup or stopping. */
  readonly state: string;
  /** WAL the primary has written that the standby has not replayed yet, in bytes. */
  readonly replayBehindBytes: number;
  /** PostgreSQL's replay_lag: how long the standby took, lately, to replay what the primary flushed (0 when idle and caught up). */
  readonly replayLagMs: number;
}

/** The standbys streaming from this primary, with their lag (needs a superuser or pg_read_all_stats to see the positions). */
export async function replicasOf(primary: Knex): Promise<ReplicaOfPrimary[]> {
  const { rows } = await primary.raw<{ rows: { name: string; address: string | null; state: string; behind: string | null; lag_ms: string | null }[] }>(
    `SELECT application_name AS name, host(client_addr) AS address, state,
            pg_wal_lsn_diff(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END, replay_lsn)::bigint::text AS behind,
            floor(extract(epoch FROM replay_lag) * 1000)::bigint::text AS lag_ms
     FROM pg_stat_replication ORDER BY application_name`,
  );
  return rows.map((r) => ({
    name: r.name,
    address: r.address,
    state: r.state,
    replayBehindBytes: Math.max(0, Number(r.behind ?? 0)),
    replayLagMs: Number(r.lag_ms ?? 0),
  }));
}
