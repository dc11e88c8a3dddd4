import { USERS_PROJECTION } from '@forum/projections/read-model';
import { LRUCache } from 'lru-cache';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';
import type { UsersStore } from '../store/users.ts';

/** A caller's forum record and whether their account is denied, as the users read model answers it. */
export type ViewerRecord = Awaited<ReturnType<UsersStore['viewer']>>;

interface Kept {
  readonly record: ViewerRecord;
  /** What the users projection had applied (CheckpointWatcher.changeOf) as known before the record was read. */
  readonly at: string;
}

/**
 * The signed-in callers' forum records (and denials), kept in memory while the users read model
 * cannot have changed: an entry answers only while the users projection's live build has applied
 * no event of its types since the entry was read (CheckpointWatcher.changeOf; passing the events
 * of others, votes, posts, comments, changes nothing). Every record, denials included, is written
 * by that projection alone, from events of its types, so any change to anyone's row or denial (a
 * role granted, a profile updated, an account disabled or erased) changes that mark, and every
 * entry kept before goes with it.
 *
 * Read-your-writes stays exact: a read with X-Min-Position has waited until the watcher knows the
 * users projection past that position, and the mark it knows comes with that position, so an
 * entry read before a change up to there no longer matches. The mark is taken before the
 * statement runs: the record read may then hold more than it says, never less. Without a known
 * mark (no live build known yet, or the users projection halted) nothing is kept. Framework-free:
 * the caller passes the subject and gets the record.
 */
export interface ViewerCache {
  /** The subject's record: kept, or read (and kept). `fresh` reads it whatever is kept. */
  read(subject: string, fresh?: boolean): Promise<ViewerRecord>;
}

export function createViewerCache(users: UsersStore, watcher: CheckpointWatcher, options: { maxEntries: number }): ViewerCache {
  const kept = options.maxEntries > 0 ? new LRUCache<string, Kept>({ max: options.maxEntries }) : null;
  return {
    async read(subject, fresh = false) {
      const at = watcher.changeOf(USERS_PROJECTION);
      const hit = kept?.get(subject);
      if (hit && !fresh && at !== null && hit.at === at) return hit.record;
      const record = await users.viewer(subject);
      if (kept && at !== null) kept.set(subject, { record, at });
      return record;
    },
  };
}
