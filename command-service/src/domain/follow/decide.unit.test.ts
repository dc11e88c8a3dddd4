import type { FollowEvent } from '@forum/contracts';
import { FIXED_NOW as at } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import type { PostState } from '../post/post.ts';
import { evolve as evolveTags, initialTagsState } from '../tag/tag.ts';
import { livePost, stateAfter, testCommandMeta } from '../testing.ts';
import { decide, type FollowCommand } from './decide.ts';
import { evolve, initialFollowsState } from './follow.ts';

const meta = testCommandMeta({ actorId: 'u-bob' });
const userId = 'u-bob';
const postId = '11111111-1111-4111-8111-111111111111';
const given = stateAfter(evolve, initialFollowsState);
const live: PostState = livePost('u-alice');
const deleted: PostState = { status: 'deleted', authorId: 'u-alice' };
const none: PostState = { status: 'none' };
const tags = stateAfter(
  evolveTags,
  initialTagsState,
)([
  { type: 'TagCreated', data: { tagId: 't1', name: 'TypeScript', createdAt: at } },
  { type: 'TagCreated', data: { tagId: 't2', name: 'gone', createdAt: at } },
  { type: 'TagDeleted', data: { tagId: 't2', name: 'gone', deletedAt: at } },
]);

const followPost = (post: PostState = live): FollowCommand => ({ type: 'FollowPost', data: { userId, postId, post } });
const unfollowPost = (post: PostState = live): FollowCommand => ({ type: 'UnfollowPost', data: { userId, postId, post } });
const followTag = (name: string): FollowCommand => ({ type: 'FollowTag', data: { userId, name, tags } });
const unfollowTag = (name: string): FollowCommand => ({ type: 'UnfollowTag', data: { userId, name, tags } });
const postFollowed: FollowEvent = { type: 'PostFollowed', data: { userId, postId, at } };
const postUnfollowed: FollowEvent = { type: 'PostUnfollowed', data: { userId, postId, at } };
const tagFollowed = (tag: string): FollowEvent => ({ type: 'TagFollowed', data: { userId, tag, at } });
const tagUnfollowed = (tag: string): FollowEvent => ({ type: 'TagUnfollowed', data: { userId, tag, at } });

describe('given no choice about the post', () => {
  const state = given([]);
  it('when FollowPost, then PostFollowed', () => {
    expect(decide(followPost(), state, meta)).toEqual([postFollowed]);
  });
  it('when UnfollowPost, then PostUnfollowed (its author or a commenter follows it by default, which the stream does not know)', () => {
    expect(decide(unfollowPost(), state, meta)).toEqual([postUnfollowed]);
  });
  it.each([
    ['unknown', none],
    ['deleted', deleted],
  ] as const)('when the post is %s, then 404 NOT_FOUND', (_, post) => {
    for (const command of [followPost(post), unfollowPost(post)]) {
      expect(() => decide(command, state, meta)).toThrowError(expect.objectContaining({ kind: 'not-found', code: 'NOT_FOUND' }));
    }
  });
});

describe('given the post followed', () => {
  const state = given([postFollowed]);
  it('when FollowPost again, then nothing', () => {
    expect(decide(followPost(), state, meta)).toEqual([]);
  });
  it('when UnfollowPost, then PostUnfollowed', () => {
    expect(decide(unfollowPost(), state, meta)).toEqual([postUnfollowed]);
  });
});

describe('given the post unfollowed', () => {
  const state = given([postFollowed, postUnfollowed]);
  it('when UnfollowPost again, then nothing', () => {
    expect(decide(unfollowPost(), state, meta)).toEqual([]);
  });
  it('when FollowPost, then PostFollowed', () => {
    expect(decide(followPost(), state, meta)).toEqual([postFollowed]);
  });
});

describe('given no tag followed', () => {
  const state = given([]);
  it('when FollowTag names a tag in another case, then TagFollowed with the name as the tag list writes it', () => {
    expect(decide(followTag('typescript'), state, meta)).toEqual([tagFollowed('TypeScript')]);
  });
  it('when UnfollowTag names a tag the forum has, then nothing', () => {
    expect(decide(unfollowTag('TYPESCRIPT'), state, meta)).toEqual([]);
  });
  it.each(['nope', 'gone'])('when the tag %s is not the forum’s, then 404 NOT_FOUND', (name) => {
    for (const command of [followTag(name), unfollowTag(name)]) {
      expect(() => decide(command, state, meta)).toThrowError(expect.objectContaining({ kind: 'not-found', code: 'NOT_FOUND' }));
    }
  });
});

describe('given a tag followed', () => {
  const state = given([tagFollowed('TypeScript'), tagFollowed('gone')]);
  it('when FollowTag again in another case, then nothing', () => {
    expect(decide(followTag('TYPESCRIPT'), state, meta)).toEqual([]);
  });
  it('when UnfollowTag in another case, then TagUnfollowed with the tag list’s name', () => {
    expect(decide(unfollowTag('typescript'), state, meta)).toEqual([tagUnfollowed('TypeScript')]);
  });
  it('when UnfollowTag names a tag deleted since, then TagUnfollowed with the name as followed', () => {
    expect(decide(unfollowTag('GONE'), state, meta)).toEqual([tagUnfollowed('gone')]);
  });
  it('when followed again after an unfollow, then TagFollowed', () => {
    expect(decide(followTag('typescript'), given([tagFollowed('TypeScript'), tagUnfollowed('TypeScript')]), meta)).toEqual([tagFollowed('TypeScript')]);
  });
});
