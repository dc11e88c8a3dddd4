import { compareLogPositions, positionToken, type LogPosition, type ProjectionStatus } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { buildSchema, readCheckpoints } from './checkpoints.ts';

/**
 * Every live or building projection build with its checkpoint, the log's head and its lag.
 * The lag counts from the last event in log order (transaction, then position): a
 * transaction that took its id before another but wrote after it has the log's highest
 * positions, yet comes before it, so a build past both is caught up however high those are.
 */
export async function projectionStatus(db: Knex): Promise<ProjectionStatus[]> {
  const [checkpoints, head] = await Promise.all([
    readCheckpoints(db),
    db.raw<{ rows: { head: string | null; tx: string | null; pos: string | null }[] }>(
      `SELECT (SELECT max(global_position) FROM eventstore.events)::text AS head, last.tx, last.pos
       FROM (SELECT NULL) nothing
       LEFT JOIN (SELECT transaction_id::text AS tx, global_position::text AS pos FROM eventstore.events ORDER BY transaction_id DESC, global_position DESC LIMIT 1) last ON true`,
    ),
  ]);
  const row = head.rows[0];
  const headPosition = BigInt(row?.head ?? '0');
  const last: LogPosition | null = row?.tx && row.pos ? { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) } : null;
  return checkpoints.map((c): ProjectionStatus => {
    const role = c.state === 'building' ? 'building' : 'live';
    const behind = last !== null && compareLogPositions(c.position, last) < 0;
    return {
      name: c.name,
      version: c.version,
      build: c.build,
      schema: buildSchema(c),
      state: c.error ? 'halted' : role,
      role,
      checkpoint: positionToken(c.position),
      head: headPosition.toString(),
      lag: behind ? Math.max(1, Number(headPosition - c.position.globalPosition)) : 0,
      error: c.error,
      failedPosition: c.failedPosition ? positionToken(c.failedPosition) : null,
      requestedBy: c.requestedBy,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    };
  });
}

/** Every live projection is running and within `maxLag` events of the head; a rebuild under way is shown, not a problem. */
export async function projectionsCheck(db: Knex, maxLag: number) {
  const status = await projectionStatus(db);
  const live = status.filter((p) => p.role === 'live');
  const problems = live.filter((p) => p.state === 'halted' || p.lag > maxLag);
  return {
    ok: live.length > 0 && problems.length === 0,
    detail: status.map(({ name, version, build, state, lag, error, failedPosition }) => ({
      name,
      version,
      build,
      state,
      lag,
      ...(error ? { error, failedPosition } : {}),
    })),
  };
}
