import { positionToken } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { readCheckpoints, type ProjectionState } from './checkpoints.ts';

export interface ProjectionStatus {
  name: string;
  version: number;
  state: ProjectionState;
  checkpoint: string;
  head: string;
  /** Events behind the head of the log (by global position; in-flight transactions may make it briefly off by a few). */
  lag: number;
  error: string | null;
  failedPosition: string | null;
  updatedAt: string;
}

/** Every projection version with its checkpoint, the log's head and its lag. */
export async function projectionStatus(db: Knex): Promise<ProjectionStatus[]> {
  const [checkpoints, head] = await Promise.all([
    readCheckpoints(db),
    db.raw<{ rows: { head: string | null }[] }>('SELECT max(global_position)::text AS head FROM eventstore.events'),
  ]);
  const headPosition = BigInt(head.rows[0]?.head ?? '0');
  return checkpoints.map((c) => ({
    name: c.name,
    version: c.version,
    state: c.state,
    checkpoint: positionToken(c.position),
    head: headPosition.toString(),
    lag: Math.max(0, Number(headPosition - c.position.globalPosition)),
    error: c.error,
    failedPosition: c.failedPosition ? positionToken(c.failedPosition) : null,
    updatedAt: c.updatedAt.toISOString(),
  }));
}
