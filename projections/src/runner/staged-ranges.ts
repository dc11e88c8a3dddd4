import { positionToken, type LogPosition } from '@forum/contracts';
import type { SqlLog } from '@forum/eventstore';
import type { Projection } from './projection.ts';

export type StagedRanges = ReturnType<typeof stagedRangesOf>;

/**
 * The ranges this runner's builds stage the log in. Builds that stage together
 * go through the log in the same ranges (bounded by the first event of any of
 * their types SQL cannot read), so each range is looked up once for all of them.
 */
export function stagedRangesOf(projections: readonly Projection[], size: number) {
  const types = [...new Set(projections.filter((p) => p.replay).flatMap((p) => p.types))].sort();
  const found = new Map<string, ReturnType<SqlLog['nextRange']>>();
  return {
    next(log: SqlLog, after: LogPosition): ReturnType<SqlLog['nextRange']> {
      const key = positionToken(after);
      let range = found.get(key);
      if (!range) {
        range = log.nextRange(after, { limit: size, types });
        found.set(key, range);
        range.catch(() => found.delete(key));
        // the builds are a few ranges apart at most
        for (const old of found.keys()) if (found.size > 16) found.delete(old);
      }
      return range;
    },
  };
}
