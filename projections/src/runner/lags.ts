import { parsePositionToken } from '@forum/contracts';
import type { BuildLag, Knex } from '@forum/platform';
import { projectionStatus } from './status.ts';

/**
 * Every projection build's lag for the metrics (forum_projection_lag_events, _lag_seconds,
 * _build_progress_ratio), from the same status `forumctl status` prints: in events, as there; in
 * seconds, how long the first event it has not applied has been in the log (read along the log's
 * order index, only for builds that are behind); its progress, the share of the log's positions it
 * has passed.
 */
export async function buildLags(db: Knex): Promise<BuildLag[]> {
  const status = await projectionStatus(db);
  const behind = status.flatMap((build, i) => {
    const position = build.lag > 0 ? parsePositionToken(build.checkpoint) : null;
    return position ? [{ i, position }] : [];
  });
  const waited = new Map<number, number>();
  if (behind.length > 0) {
    const { rows } = await db.raw<{ rows: { i: number; seconds: number | null }[] }>(
      `SELECT b.i::int AS i,
              extract(epoch FROM now() - (SELECT e.recorded_at FROM eventstore.events e
                                          WHERE (e.transaction_id, e.global_position) > (b.tx::xid8, b.pos)
                                          ORDER BY e.transaction_id, e.global_position LIMIT 1))::float8 AS seconds
       FROM unnest(?::int[], ?::text[], ?::bigint[]) AS b(i, tx, pos)`,
      [behind.map((b) => b.i), behind.map((b) => b.position.transactionId.toString()), behind.map((b) => b.position.globalPosition.toString())],
    );
    for (const row of rows) waited.set(row.i, Math.max(0, row.seconds ?? 0));
  }
  return status.map((build, i) => {
    const head = Number(build.head);
    return {
      projection: build.name,
      version: build.version,
      role: build.role,
      lagEvents: build.lag,
      lagSeconds: waited.get(i) ?? 0,
      progress: head === 0 ? 1 : Math.min(1, Math.max(0, (head - build.lag) / head)),
    };
  });
}
