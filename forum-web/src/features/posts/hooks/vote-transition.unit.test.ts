import { describe, expect, it } from 'vitest';
import { voteChange, voteRequest, type VoteClick } from './vote-transition';
import type { Vote } from '@forum/contracts';

describe('voteRequest (spec §4 Vote), every current vote × every click', () => {
  const cases: Array<[Vote, VoteClick, Vote, { likeChange: number; dislikeChange: number }]> = [
    ['none', 'like', 'up', { likeChange: 1, dislikeChange: 0 }],
    ['up', 'like', 'none', { likeChange: -1, dislikeChange: 0 }],
    ['down', 'like', 'up', { likeChange: 1, dislikeChange: -1 }],
    ['none', 'dislike', 'down', { likeChange: 0, dislikeChange: 1 }],
    ['down', 'dislike', 'none', { likeChange: 0, dislikeChange: -1 }],
    ['up', 'dislike', 'down', { likeChange: -1, dislikeChange: 1 }],
  ];

  it.each(cases)('from %s, %s asks for %s and moves the counts by %o', (current, click, vote, change) => {
    expect(voteRequest(current, click)).toEqual({ vote });
    expect(voteChange(current, vote)).toEqual(change);
  });

  it('covers all six combinations', () => {
    expect(new Set(cases.map(([current, click]) => `${current}/${click}`)).size).toBe(6);
  });

  it('changes nothing when the vote stays the same', () => {
    for (const vote of ['up', 'down', 'none'] as const) expect(voteChange(vote, vote)).toEqual({ likeChange: 0, dislikeChange: 0 });
  });
});
