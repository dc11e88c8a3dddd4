import { describe, expect, it } from 'vitest';
import { stateChanges } from './state-changes.ts';

describe('stateChanges', () => {
  it('names each field added, changed or removed, nested fields by their path, a list of values by what it gained and lost', () => {
    const before = { status: 'created', title: 'Owls', revision: { number: 1, by: 'ann' }, tags: ['A'], gone: 1 };
    const after = { status: 'created', title: 'Owls, edited', revision: { number: 2, by: 'ann' }, tags: ['A', 'B'], handle: 'ann' };
    expect(stateChanges(before, after)).toEqual([
      { change: 'changed', path: 'title', before: 'Owls', after: 'Owls, edited' },
      { change: 'changed', path: 'revision.number', before: 1, after: 2 },
      { change: 'added', path: 'tags[]', after: 'B' },
      { change: 'removed', path: 'gone', before: 1 },
      { change: 'added', path: 'handle', after: 'ann' },
    ]);
  });

  it('finds nothing between equal states, and the whole state changed from none to an object', () => {
    expect(stateChanges({ a: { b: [1] } }, { a: { b: [1] } })).toEqual([]);
    expect(stateChanges({ status: 'none' }, { status: 'created', title: 'T' })).toEqual([
      { change: 'changed', path: 'status', before: 'none', after: 'created' },
      { change: 'added', path: 'title', after: 'T' },
    ]);
    expect(stateChanges(1, 2)).toEqual([{ change: 'changed', path: '', before: 1, after: 2 }]);
    // a list of values, from empty, or with values swapped; a list of objects is compared whole
    expect(stateChanges({ l: [] }, { l: ['x'] })).toEqual([{ change: 'added', path: 'l[]', after: 'x' }]);
    expect(stateChanges({ l: [{ a: 1 }] }, { l: [{ a: 2 }] })).toEqual([{ change: 'changed', path: 'l', before: [{ a: 1 }], after: [{ a: 2 }] }]);
    expect(stateChanges({ l: ['a', 'b'] }, { l: ['b', 'c'] })).toEqual([
      { change: 'added', path: 'l[]', after: 'c' },
      { change: 'removed', path: 'l[]', before: 'a' },
    ]);
  });
});
