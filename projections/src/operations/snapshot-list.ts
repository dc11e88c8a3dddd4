import { positionToken, type Snapshot } from '@forum/contracts';
import type { Knex } from '@forum/platform';

/** The schema of a snapshot's views (operations/snapshot.ts), what operators query. */
export const snapshotSchema = (name: string) => `snapshot_${name}`;

/** The session lock a snapshot's builder holds while it builds (a build without it was interrupted). */
export const LOCK_CLASS = 4244;

interface SnapshotRow {
  name: string;
  tx: string;
  pos: string;
  at: Date;
  state: 'building' | 'ready' | 'failed';
  built: number;
  total: number;
  current: string | null;
  current_pos: string | null;
  error: string | null;
  requested_by: string;
  created_at: Date;
  bytes: string;
  erased_since: number;
  locked: boolean;
}

/** Every snapshot, newest first, with its size and progress (none before the first `forumctl snapshot`). */
export async function listSnapshots(db: Knex): Promise<Snapshot[]> {
  const { rows: exists } = await db.raw<{ rows: { registry: boolean; erasures: boolean }[] }>(
    `SELECT to_regclass('projections.snapshots') IS NOT NULL AS registry, to_regclass('keystore.erasures') IS NOT NULL AS erasures`,
  );
  if (!exists[0]!.registry) return [];
  const erasedSince = exists[0]!.erasures ? `(SELECT count(*) FROM keystore.erasures e WHERE e.erased_at >= s.created_at)::int` : '0';
  const { rows } = await db.raw<{ rows: SnapshotRow[] }>(
    `SELECT s.name, s.tx::text AS tx, s.pos::text AS pos, s.at, s.state, s.built, s.total, s.current, s.current_pos::text AS current_pos,
            s.error, s.requested_by, s.created_at,
            (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = ANY (s.schemas) AND c.relkind IN ('r', 'm'))::text AS bytes,
            ${erasedSince} AS erased_since,
            EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.classid = ? AND l.objid = hashtext(s.name)::oid AND l.objsubid = 2) AS locked
     FROM projections.snapshots s ORDER BY s.created_at DESC, s.name`,
    [LOCK_CLASS],
  );
  return rows.map((row) => {
    const state = row.state === 'building' && !row.locked ? 'interrupted' : row.state;
    const percent =
      row.state === 'ready' ? 100 : row.current_pos === null ? 0 : Math.min(100, Math.floor((Number(row.current_pos) * 100) / Math.max(Number(row.pos), 1)));
    return {
      id: row.name,
      name: row.name,
      schema: snapshotSchema(row.name),
      position: positionToken({ transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) }),
      at: row.at.toISOString(),
      state,
      built: row.built,
      total: row.total,
      current: state === 'building' ? row.current : null,
      percent,
      bytes: Number(row.bytes),
      erasedSince: row.erased_since,
      requestedBy: row.requested_by,
      createdAt: row.created_at.toISOString(),
      error: row.error,
    };
  });
}
