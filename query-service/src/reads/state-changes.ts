import type { StateChange } from '@forum/contracts';

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const isSet = (value: unknown): value is unknown[] => Array.isArray(value) && value.every(isScalar);

/**
 * What differs from `before` to `after`, field by field (objects opened; a list of plain values by
 * the values it gained and lost, at `<field>[]`; any other list or value compared whole), in the
 * order of their fields: a compact diff for the console's history.
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
  if (isSet(before) && isSet(after)) {
    const at = `${path}[]`;
    return [
      ...after.filter((value) => !before.includes(value)).map((value) => ({ change: 'added' as const, path: at, after: value })),
      ...before.filter((value) => !after.includes(value)).map((value) => ({ change: 'removed' as const, path: at, before: value })),
    ];
  }
  return same(before, after) ? [] : [{ change: 'changed', path, before, after }];
}
