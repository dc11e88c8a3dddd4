import { ErrorCode } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { tooManyWrites } from './limits.ts';

describe('tooManyWrites', () => {
  it.each([
    ['comment', 1, 'Too many comments. Try again in 1 second.', 1],
    ['post', 44_200, 'Too many posts. Try again in 45 seconds.', 45],
    ['vote', 60_000, 'Too many votes. Try again in 1 minute.', 60],
    ['comment', 61_000, 'Too many comments. Try again in 2 minutes.', 61],
    ['profile', 119 * 60_000, 'Too many profile changes. Try again in 119 minutes.', 7140],
    ['contact', 20 * 3_600_000 + 1, 'Too many messages. Try again in 21 hours.', 72_001],
  ] as const)('%s, %i ms to wait: "%s", Retry-After %i', (kind, ms, message, seconds) => {
    const error = tooManyWrites(kind, ms);
    expect(error).toMatchObject({ status: 429, code: ErrorCode.RATE_LIMITED, message, retryAfterSeconds: seconds, details: { retryAfterSeconds: seconds } });
  });
});
