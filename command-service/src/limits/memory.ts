import type { WriteKind, WriteLimit } from '@forum/contracts';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { WriteLimits } from '../domain/limits.ts';
import { windowedLimits, windowsOf } from './windows.ts';

/**
 * The write limits counted in this process's memory by rate-limiter-flexible (the same windows and
 * rules as the PostgreSQL limits, which count for every process on one database): for one process
 * alone, such as the route tests.
 */
export function createMemoryWriteLimits(limits: Readonly<Record<WriteKind, WriteLimit>>): WriteLimits {
  return windowedLimits(windowsOf(limits, (prefix, window) => new RateLimiterMemory({ keyPrefix: prefix, points: window.points, duration: window.seconds })));
}
