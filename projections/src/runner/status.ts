import { positionToken, type ProjectionStatus } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { buildSchema, readCheckpoints } from './checkpoints.ts';

/** Every live or building projection build with its checkpoint, the log's head and its lag. */
export async function projectionStatus(db: Knex): Promise<ProjectionStatus[]> {
  const [checkpoints, head] = await Promise.all([
    readCheckpoints(db),
    db.raw<{ rows: { head: string | null }[] }>('SELECT max(global_position)::text AS head FROM eventstore.events'),
  ]);
  const headPosition = BigInt(head.rows[0]?.head ?? '0');
  return checkpoints.map((c): ProjectionStatus => {
    const role = c.state === 'building' ? 'building' : 'live';
    return {
      name: c.name,
      version: c.version,
      build: c.build,
      schema: buildSchema(c),
      state: c.error ? 'halted' : role,
      role,
      checkpoint: positionToken(c.position),
      head: headPosition.toString(),
      lag: Math.max(0, Number(headPosition - c.position.globalPosition)),
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
