import type { Vote, VoteEvent } from '@forum/contracts';
import { FIXED_NOW as at } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import type { PostState } from '../post/post.ts';
import { testCommandMeta, livePost } from '../testing.ts';
import { decide, voteAfter, type VoteCommand } from './decide.ts';
import { evolve, initialVoteState, type VoteState } from './vote.ts';

const meta = testCommandMeta({ actorId: 'u-bob', requestId: 'r' });
const postId = '11111111-1111-4111-8111-111111111111';
const live: PostState = livePost('u-alice');
const cast = (previous: Vote, vote: Vote): VoteEvent => ({ type: 'VoteCast', data: { postId, userId: 'u-bob', previous, vote, at } });
const given = (...votes: Vote[]): VoteState =>
  votes.reduce<{ state: VoteState; last: Vote }>((acc, vote) => ({ state: evolve(acc.state, cast(acc.last, vote)), last: vote }), {
    state: initialVoteState,
    last: 'none',
  }).state;
const set = (vote: Vote, post: PostState = live, voterIsStaff = false): VoteCommand => ({
  type: 'SetVote',
  data: { postId, userId: 'u-bob', vote, post, voterIsStaff },
});
const change = (likeChange: -1 | 0 | 1, dislikeChange: -1 | 0 | 1, post: PostState = live, voterIsStaff = false): VoteCommand => ({
  type: 'ChangeVote',
  data: { postId, userId: 'u-bob', likeChange, dislikeChange, post, voterIsStaff },
});

describe('#43.4 given a hidden post', () => {
  const hidden = livePost('u-alice', { hidden: { reason: 'Spam' } });
  it('when a member votes (set or change), then 404 as if it were absent; staff may vote', () => {
    expect(() => decide(set('up', hidden), initialVoteState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
    expect(() => decide(change(1, 0, hidden), initialVoteState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
    expect(decide(set('up', hidden, true), initialVoteState, meta)).toMatchObject([{ type: 'VoteCast', data: { vote: 'up' } }]);
  });
});

describe('given no vote', () => {
  const state = given();
  it('when SetVote up, then VoteCast none → up', () => {
    expect(decide(set('up'), state, meta)).toEqual([cast('none', 'up')]);
  });
  it('when SetVote none, then nothing (the same vote again)', () => {
    expect(decide(set('none'), state, meta)).toEqual([]);
  });
  it('when liking (+1, 0), then VoteCast none → up', () => {
    expect(decide(change(1, 0), state, meta)).toEqual([cast('none', 'up')]);
  });
  it('when disliking (0, +1), then VoteCast none → down', () => {
    expect(decide(change(0, 1), state, meta)).toEqual([cast('none', 'down')]);
  });
  it.each([
    [-1, 0],
    [0, -1],
    [1, 1],
    [1, -1],
    [-1, 1],
    [0, 0],
  ] as const)('when the change (%i, %i) is not legal from none, then 409 ILLEGAL_VOTE_TRANSITION with the current vote', (like, dislike) => {
    expect(() => decide(change(like, dislike), state, meta)).toThrowError(
      expect.objectContaining({ kind: 'conflict', code: 'ILLEGAL_VOTE_TRANSITION', details: { current: 'none' } }),
    );
  });
});

describe("given the voter's own post (#28.2)", () => {
  const own: PostState = livePost('u-bob');
  it.each([
    ['SetVote up', set('up', own)],
    ['SetVote down', set('down', own)],
    ['liking (+1, 0)', change(1, 0, own)],
    ['disliking (0, +1)', change(0, 1, own)],
  ])('when %s, then 422 OWN_POST_VOTE', (_, command) => {
    expect(() => decide(command, given(), meta)).toThrowError(expect.objectContaining({ kind: 'rule', code: 'OWN_POST_VOTE' }));
  });
  it('when a vote cast before the rule is taken back, then VoteCast up → none', () => {
    expect(decide(set('none', own), given('up'), meta)).toEqual([cast('up', 'none')]);
    expect(decide(change(-1, 0, own), given('up'), meta)).toEqual([cast('up', 'none')]);
  });
  it('when a vote cast before the rule is switched (up → down), then 422 OWN_POST_VOTE', () => {
    expect(() => decide(change(-1, 1, own), given('up'), meta)).toThrowError(expect.objectContaining({ code: 'OWN_POST_VOTE' }));
  });
});

describe('given an up vote', () => {
  const state = given('up');
  it('when SetVote up again, then nothing', () => {
    expect(decide(set('up'), state, meta)).toEqual([]);
  });
  it('when SetVote down, then VoteCast up → down', () => {
    expect(decide(set('down'), state, meta)).toEqual([cast('up', 'down')]);
  });
  it('when liking again (-1, 0), then the like is undone: up → none', () => {
    expect(decide(change(-1, 0), state, meta)).toEqual([cast('up', 'none')]);
  });
  it('when disliking (-1, +1), then it switches: up → down', () => {
    expect(decide(change(-1, 1), state, meta)).toEqual([cast('up', 'down')]);
  });
  it.each([
    [1, 0],
    [0, 1],
    [0, -1],
    [1, -1],
  ] as const)('when the change (%i, %i) is not legal from up, then 409 with current up', (like, dislike) => {
    expect(() => decide(change(like, dislike), state, meta)).toThrowError(
      expect.objectContaining({ code: 'ILLEGAL_VOTE_TRANSITION', details: { current: 'up' } }),
    );
  });
});

describe('given a down vote', () => {
  const state = given('down');
  it('when disliking again (0, -1), then the dislike is undone: down → none', () => {
    expect(decide(change(0, -1), state, meta)).toEqual([cast('down', 'none')]);
  });
  it('when liking (+1, -1), then it switches: down → up', () => {
    expect(decide(change(1, -1), state, meta)).toEqual([cast('down', 'up')]);
  });
  it('when SetVote none, then VoteCast down → none', () => {
    expect(decide(set('none'), state, meta)).toEqual([cast('down', 'none')]);
  });
  it('when the spec client sends a like as if nothing were voted (+1, 0), then 409 with current down', () => {
    expect(() => decide(change(1, 0), state, meta)).toThrowError(expect.objectContaining({ code: 'ILLEGAL_VOTE_TRANSITION', details: { current: 'down' } }));
  });
});

describe('given a vote undone (up, then none)', () => {
  it('when liking again, then none → up', () => {
    expect(decide(change(1, 0), given('up', 'none'), meta)).toEqual([cast('none', 'up')]);
  });
});

describe('given a post that does not exist or is deleted', () => {
  it.each<PostState>([{ status: 'none' }, { status: 'deleted', authorId: 'u-alice' }])('when voting on %j, then 404 NOT_FOUND', (post) => {
    expect(() => decide(set('up', post), given(), meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
    expect(() => decide(change(1, 0, post), given(), meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
});

describe('voteAfter (spec §4 transitions)', () => {
  it.each([
    ['none', 1, 0, 'up'],
    ['none', 0, 1, 'down'],
    ['up', -1, 0, 'none'],
    ['up', -1, 1, 'down'],
    ['down', 0, -1, 'none'],
    ['down', 1, -1, 'up'],
  ] as const)('%s with (%i, %i) → %s', (current, like, dislike, next) => {
    expect(voteAfter(current, like, dislike)).toBe(next);
  });
});
