import { describe, expect, it } from 'vitest';
import { clientKey, createMemoryRateLimiter } from './rate-limit.ts';

describe('the in-memory rate limiter', () => {
  const window = 10 * 60_000;
  it('lets `points` requests of a key through in a window, refuses the next with the time until the oldest leaves it', () => {
    let t = 1_000_000;
    const limiter = createMemoryRateLimiter({ points: 3, windowMs: window }, () => t);
    for (let i = 0; i < 3; i++) {
      expect(limiter.consume('a')).toEqual({ allowed: true });
      t += 1000;
    }
    expect(limiter.consume('a')).toEqual({ allowed: false, retryAfterMs: window - 3000 });
    expect(limiter.consume('b')).toEqual({ allowed: true });
  });

  it('slides: a refused request does not count, and the oldest hit leaving the window frees one place', () => {
    let t = 0;
    const limiter = createMemoryRateLimiter({ points: 2, windowMs: window }, () => t);
    limiter.consume('a');
    t = 5000;
    limiter.consume('a');
    t = window - 1;
    expect(limiter.consume('a').allowed).toBe(false);
    t = window + 1;
    expect(limiter.consume('a').allowed).toBe(true);
    expect(limiter.consume('a').allowed).toBe(false);
  });
});

describe('clientKey', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.0.0.7', '10.0.0.7'],
    ['2001:db8:85a3:1:2:3:4:5', '2001:db8:85a3:1::/64'],
    ['2001:db8:85a3:1::9', '2001:db8:85a3:1::/64'],
    ['2001:0db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    [undefined, 'unknown'],
  ])('keys %s as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});
