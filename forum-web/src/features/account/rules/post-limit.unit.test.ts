import { FREE_POST_LIMIT, POST_LIMIT_WARNING_FROM } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { postLimitState } from './post-limit';

describe('postLimitState', () => {
  it.each([0, 1, 2, 3])('a free user with %i posts sees the count only', (count) => {
    expect(postLimitState(count, false)).toEqual({ kind: 'free', count, limit: FREE_POST_LIMIT, warning: false });
  });

  it('a free user from the warning threshold up to the limit is warned', () => {
    expect(POST_LIMIT_WARNING_FROM).toBeLessThan(FREE_POST_LIMIT);
    for (let count = POST_LIMIT_WARNING_FROM; count < FREE_POST_LIMIT; count++) {
      expect(postLimitState(count, false)).toMatchObject({ kind: 'free', warning: true });
    }
  });

  it.each([FREE_POST_LIMIT, FREE_POST_LIMIT + 3])('a free user with %i posts has reached the limit', (count) => {
    expect(postLimitState(count, false)).toEqual({ kind: 'reached', count, limit: FREE_POST_LIMIT });
  });

  it.each([0, 4, 5, 50])('a member with %i posts has no limit', (count) => {
    expect(postLimitState(count, true)).toEqual({ kind: 'member' });
  });
});
