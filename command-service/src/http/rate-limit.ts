import { isIPv6 } from 'node:net';
import { ErrorCode } from '@forum/contracts';
import { AppError } from '@forum/platform';

export class RateLimitedError extends AppError {
  constructor(retryAfterMs: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
    super(429, ErrorCode.RATE_LIMITED, `Too many messages. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`, { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) });
  }
}

export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterMs: number };

export interface RateLimiter {
  /** Counts one request of `key` when it is within the limit. */
  consume(key: string): RateDecision;
}

/**
 * At most `points` requests per key in any sliding window of `windowMs`, kept in
 * this process's memory: a few timestamps per active key, keys swept once a
 * window. With several command-service processes each counts on its own (the
 * effective limit is per process); a shared store is the upgrade when that matters.
 */
export function createMemoryRateLimiter(options: { points: number; windowMs: number }, now: () => number = Date.now): RateLimiter {
  const hits = new Map<string, number[]>();
  let lastSweep = now();
  return {
    consume(key) {
      const t = now();
      if (t - lastSweep >= options.windowMs) {
        for (const [k, times] of hits) if (times.at(-1)! <= t - options.windowMs) hits.delete(k);
        lastSweep = t;
      }
      const recent = (hits.get(key) ?? []).filter((at) => at > t - options.windowMs);
      if (recent.length >= options.points) {
        hits.set(key, recent);
        return { allowed: false, retryAfterMs: recent[0]! + options.windowMs - t };
      }
      recent.push(t);
      hits.set(key, recent);
      return { allowed: true };
    },
  };
}

/**
 * The key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its
 * /64 prefix, since one client usually holds a whole /64.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
