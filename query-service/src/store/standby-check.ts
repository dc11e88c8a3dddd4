import { standbyStatus, type Knex, type ReadinessCheck } from '@forum/platform';
import type { CheckpointWatcher } from './checkpoint-watcher.ts';

/**
 * Readiness of a read side on a hot standby (READ_DATABASE_URL): fails while the standby does not
 * stream from its primary or its reads may be older than `maxLagMs`. Its detail is the standby's
 * lag (see standbyStatus) and how many events its projections' checkpoints are behind what the
 * primary announced (checkpointsBehind). A standby promoted to primary has no lag.
 */
export function standbyCheck(db: Knex, watcher: CheckpointWatcher, maxLagMs: number): ReadinessCheck {
  return async () => {
    const status = await standbyStatus(db);
    const ok = !status.standby || (status.streaming && status.lagMs <= maxLagMs);
    return { ok, detail: { ...status, checkpointsBehind: watcher.standbyBehind() } };
  };
}
