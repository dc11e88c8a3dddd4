import { describe, expect, it } from 'vitest';
import { stateChanges } from './state-changes.ts';

describe('stateChanges', () => {
  it('names each field added, changed or removed, nested fields by their path, lists compared whole', () => {
    const before = { status: 'created', title: 'Owls', revision: { number: 1, by: 'ann' }, tags: ['A'], gone: 1 };
    const after = { status: 'created', title: 'Owls, edited', revision: { number: 2, by: 'ann' }, tags: ['A', 'B'], handle: 'ann' };
    expect(stateChanges(before, after)).toEqual([
      { change: 'changed', path: 'title', before: 'Owls', after: 'Owls, edited' },
      { change: 'changed', path: 'revision.number', before: 1, after: 2 },
      { change: 'changed', path: 'tags', before: ['A'], after: ['A', 'B'] },
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
  });
});
