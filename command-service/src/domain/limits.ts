import type { WriteKind } from '@forum/contracts';
import { RateLimitedError } from '@forum/platform';

/**
 * The write limits (contracts' WRITE_LIMITS) as the commands see them: a port, so the commands
 * neither know where the counts are kept nor that tools (the demo data, forumctl) write unlimited.
 */
export interface WriteLimits {
  /**
   * Counts one write of `kind` by `key` (a member's id; a client address for contact). Throws
   * RateLimitedError when that would go over a limit; then nothing is counted.
   */
  take(kind: WriteKind, key: string): Promise<Taken>;
}

/** A write counted by `WriteLimits.take`. */
export interface Taken {
  /** Uncounts it: the command appended nothing after all. Never throws. */
  giveBack(): Promise<void>;
}

/** What a command's write costs: taken once, just before its events are appended (see `execute`). */
export type Cost = () => Promise<Taken>;

/** The cost of a write of `kind` by `key`, as the commands name it (none: writes are not limited). */
export type Costs = (kind: WriteKind, key: string) => Cost | undefined;

/** What one write of a kind is called in the refusal's message. */
const NOUNS: Record<WriteKind, string> = {
  post: 'posts',
  comment: 'comments',
  edit: 'edits',
  vote: 'votes',
  follow: 'follows',
  report: 'reports',
  profile: 'profile changes',
  contact: 'messages',
  lookup: 'profile lookups',
  read: 'marks as read',
  preferences: 'notification settings changes',
};

/** 'Too many comments. Try again in 2 minutes.': 429 with Retry-After in whole seconds. */
export function tooManyWrites(kind: WriteKind, retryAfterMs: number): RateLimitedError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new RateLimitedError(`Too many ${NOUNS[kind]}. Try again in ${waitOf(seconds)}.`, seconds);
}

/** Seconds under a minute, then whole minutes (rounded up), then whole hours from two hours on. */
function waitOf(seconds: number): string {
  const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return count(seconds, 'second');
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return count(minutes, 'minute');
  return count(Math.ceil(minutes / 60), 'hour');
}
