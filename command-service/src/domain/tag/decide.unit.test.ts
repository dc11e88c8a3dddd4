import { describe, expect, it } from 'vitest';
import type { CommandMeta } from '../command.ts';
import { decide } from './decide.ts';
import { canonicalTag, evolve, initialTagsState } from './tag.ts';

const meta: CommandMeta = { actorId: 'admin', now: new Date('2026-11-21T10:00:00Z'), correlationId: 'c', causationId: null, requestId: null };
const create = (name: string, tagId = '00000000-0000-4000-8000-000000000009') => ({ type: 'CreateTag' as const, data: { tagId, name } });

describe('given no tags', () => {
  it('when CreateTag, then TagCreated with the trimmed name', () => {
    expect(decide(create('  React '), initialTagsState, meta)).toEqual([
      { type: 'TagCreated', data: { tagId: '00000000-0000-4000-8000-000000000009', name: 'React', createdAt: '2026-11-21T10:00:00.000Z' } },
    ]);
  });
});

describe('given the tag React', () => {
  const state = decide(create('React'), initialTagsState, meta).reduce(evolve, initialTagsState);
  it('when CreateTag "react" (another case), then 409 TAG_EXISTS', () => {
    expect(() => decide(create('react'), state, meta)).toThrowError(expect.objectContaining({ status: 409, code: 'TAG_EXISTS' }));
  });
  it('resolves names ignoring case to the tag\'s own spelling', () => {
    expect(canonicalTag(state, ' REACT ')).toBe('React');
    expect(canonicalTag(state, 'vue')).toBeNull();
  });
});
