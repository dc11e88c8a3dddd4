import { PINNED_MAX } from '@forum/contracts';
import { FIXED_NOW as at, uuidOf } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import type { PostState } from '../post/post.ts';
import { livePost, testCommandMeta } from '../testing.ts';
import { decidePins, evolvePins, initialPinsState, type PinCommand, type PinsState } from './pins.ts';

const meta = testCommandMeta({ actorId: 'u-mo' });
const postId = uuidOf(9);
const live = livePost('u-bob');
const deleted: PostState = { status: 'deleted', authorId: 'u-bob' };
const pinnedIds = Array.from({ length: PINNED_MAX }, (_, i) => uuidOf(i + 1));
const pinsOf = (ids: string[]): PinsState =>
  ids.map((id) => ({ type: 'PostPinned' as const, data: { postId: id, pinnedBy: 'u-mo', pinnedAt: at } })).reduce(evolvePins, initialPinsState);
const pin = (post: PostState, pinnedPosts: ReadonlyMap<string, PostState> = new Map()): PinCommand => ({
  type: 'PinPost',
  data: { postId, actorId: 'u-mo', post, pinnedPosts },
});
const unpin = (post: PostState, id = postId): PinCommand => ({ type: 'UnpinPost', data: { postId: id, actorId: 'u-mo', post } });

describe('pins (#43.4)', () => {
  it('when PinPost on a live post, then PostPinned; pinned again: nothing', () => {
    const events = decidePins(pin(live), initialPinsState, meta);
    expect(events).toEqual([{ type: 'PostPinned', data: { postId, pinnedBy: 'u-mo', pinnedAt: at } }]);
    expect(decidePins(pin(live), events.reduce(evolvePins, initialPinsState), meta)).toEqual([]);
  });
  it(`given ${PINNED_MAX} live pinned posts, when PinPost, then 409 PIN_LIMIT_REACHED`, () => {
    const posts = new Map(pinnedIds.map((id) => [id, live]));
    expect(() => decidePins(pin(live, posts), pinsOf(pinnedIds), meta)).toThrowError(
      expect.objectContaining({ kind: 'conflict', code: 'PIN_LIMIT_REACHED', message: 'At most 3 posts can be pinned. Unpin one first.' }),
    );
  });
  it(`given ${PINNED_MAX} pinned posts of which one is deleted, when PinPost, then PostPinned (a deleted pinned post does not count)`, () => {
    const posts = new Map(pinnedIds.map((id, i) => [id, i === 0 ? deleted : live]));
    expect(decidePins(pin(live, posts), pinsOf(pinnedIds), meta)).toHaveLength(1);
  });
  it('when PinPost on an unknown or deleted post, then 404', () => {
    for (const post of [{ status: 'none' } as PostState, deleted])
      expect(() => decidePins(pin(post), initialPinsState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
  it('when UnpinPost on a pinned post (deleted too), then PostUnpinned and it is no longer pinned; not pinned: nothing; unknown: 404', () => {
    const pins = pinsOf(pinnedIds);
    const events = decidePins(unpin(deleted, pinnedIds[0]), pins, meta);
    expect(events).toEqual([{ type: 'PostUnpinned', data: { postId: pinnedIds[0], unpinnedBy: 'u-mo', unpinnedAt: at } }]);
    expect(events.reduce(evolvePins, pins).pinned).toEqual(pinnedIds.slice(1));
    expect(decidePins(unpin(live), pins, meta)).toEqual([]);
    expect(() => decidePins(unpin({ status: 'none' }), pins, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
});
