import { LRUCache } from 'lru-cache';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';

/**
 * Values read from the read models, kept in memory while the read side's version
 * (CheckpointWatcher.version) holds: a read model changes only when a checkpoint moves, so a value
 * read at one version answers every read at that version, whoever asks. A value is kept only if
 * the version did not change while it was read (it may then hold more than the version says,
 * never less); a new version drops everything kept. Nothing is kept before a version is known, and
 * nothing that is not there (a miss is read again: a stranger cannot fill the memory with misses).
 *
 * Read-your-writes stays exact: a read with X-Min-Position has waited until the watcher knows that
 * position applied (minPosition), and that same notice changed the version.
 */
export interface VersionMemo<V extends object> {
  /** The value kept under `key` at the current version, or `read()`'s (kept when found). */
  read<T extends V>(key: string, read: () => Promise<T | null>): Promise<T | null>;
}

/** At most `maxSize` of what `sizeOf` counts is kept (least recently used first out); 0: nothing. */
export function versionMemo<V extends object>(
  watcher: Pick<CheckpointWatcher, 'version'>,
  options: { maxSize: number; sizeOf: (value: V) => number },
): VersionMemo<V> {
  const kept =
    options.maxSize > 0 ? new LRUCache<string, V>({ maxSize: options.maxSize, sizeCalculation: (value) => Math.max(1, options.sizeOf(value)) }) : null;
  let version: string | null = null;
  const current = () => {
    const now = watcher.version();
    if (now !== version) {
      version = now;
      kept?.clear();
    }
    return now;
  };
  return {
    async read<T extends V>(key: string, read: () => Promise<T | null>): Promise<T | null> {
      const at = current();
      if (!kept || at === null) return read();
      const hit = kept.get(key);
      if (hit !== undefined) return hit as T;
      const value = await read();
      if (value !== null && current() === at) kept.set(key, value);
      return value;
    },
  };
}
