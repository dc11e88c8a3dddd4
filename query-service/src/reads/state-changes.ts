import type { StateChange } from '@forum/contracts';

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What differs from `before` to `after`, field by field (objects opened, a list or a value compared
 * whole), in the order of their fields: a compact diff for the console's history.
 */
export function stateChanges(before: unknown, after: unknown, path = ''): StateChange[] {
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => {
      const at = path ? `${path}.${key}` : key;
      if (!(key in before)) return [{ change: 'added' as const, path: at, after: after[key] }];
      if (!(key in after)) return [{ change: 'removed' as const, path: at, before: before[key] }];
      return stateChanges(before[key], after[key], at);
    });
  }
  return same(before, after) ? [] : [{ change: 'changed', path, before, after }];
}
