import type { TagEvent } from '@forum/contracts';
import { FIXED_NOW as at, uuidOf } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { stateAfter, testCommandMeta } from '../testing.ts';
import { decide } from './decide.ts';
import { canonicalTag, evolve, initialTagsState } from './tag.ts';

const meta = testCommandMeta({ actorId: 'admin' });
const REACT = uuidOf(9);
const VUE = uuidOf(10);
const create = (name: string, tagId = REACT) => ({ type: 'CreateTag' as const, data: { tagId, name } });
const remove = (tagId: string) => ({ type: 'DeleteTag' as const, data: { tagId } });
const given = stateAfter(evolve, initialTagsState);
const created = (name: string, tagId: string): TagEvent => ({ type: 'TagCreated', data: { tagId, name, createdAt: at } });
const deleted = (name: string, tagId: string): TagEvent => ({ type: 'TagDeleted', data: { tagId, name, deletedAt: at } });

describe('given no tags', () => {
  it('when CreateTag, then TagCreated with the trimmed name', () => {
    expect(decide(create('  React '), initialTagsState, meta)).toEqual([created('React', REACT)]);
  });
  it('when DeleteTag, then 404', () => {
    expect(() => decide(remove(REACT), initialTagsState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found', code: 'NOT_FOUND' }));
  });
});

describe('given the tag React', () => {
  const state = given([created('React', REACT)]);
  it('when CreateTag "react" (another case), then 409 TAG_EXISTS naming the tag that exists, React, in the message and the details', () => {
    expect(() => decide(create('react', VUE), state, meta)).toThrowError(
      expect.objectContaining({
        kind: 'conflict',
        code: 'TAG_EXISTS',
        message: 'The tag "React" already exists',
        details: { tag: { _id: REACT, name: 'React' } },
      }),
    );
  });
  it("resolves names ignoring case to the tag's own spelling", () => {
    expect(canonicalTag(state, ' REACT ')).toBe('React');
    expect(canonicalTag(state, 'vue')).toBeNull();
  });
  it('when DeleteTag of its id, then TagDeleted with its name', () => {
    expect(decide(remove(REACT), state, meta)).toEqual([deleted('React', REACT)]);
  });
  it('when DeleteTag of another id, then 404', () => {
    expect(() => decide(remove(VUE), state, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
});

describe('given the tag React, deleted', () => {
  const state = given([created('React', REACT), deleted('React', REACT)]);
  it('is no longer a tag a post can name', () => {
    expect(canonicalTag(state, 'React')).toBeNull();
  });
  it('when DeleteTag again, then 404', () => {
    expect(() => decide(remove(REACT), state, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
  it('when CreateTag "REACT" under a new id, then TagCreated: the name is free again', () => {
    expect(decide(create('REACT', VUE), state, meta)).toEqual([created('REACT', VUE)]);
  });
});

describe('given React deleted and created again under a new id', () => {
  const state = given([created('React', REACT), deleted('React', REACT), created('React', VUE)]);
  it('when DeleteTag of the old id, then 404; the new tag stays', () => {
    expect(() => decide(remove(REACT), state, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
    expect(canonicalTag(state, 'react')).toBe('React');
  });
  it('when DeleteTag of the new id, then TagDeleted', () => {
    expect(decide(remove(VUE), state, meta)).toEqual([deleted('React', VUE)]);
  });
});
