import { describe, expect, it } from 'vitest';
import { allProjections } from '../index.ts';
import { readIndexNames } from './status.ts';

describe('readiness knows every read index by name', () => {
  it.each(allProjections.map((p) => [p.name, p] as const))('%s: each statement names its index', (_name, projection) => {
    const names = readIndexNames(projection);
    expect(names).toHaveLength(Object.values(projection.indexes ?? {}).flat().length);
    expect(new Set(names).size).toBe(names.length);
  });

  it('refuses a statement it cannot name', () => {
    expect(() => readIndexNames({ name: 'odd', indexes: { t: ['CREATE INDEX ON t (a)'] } })).toThrow(/cannot name/);
  });
});
