import { WRITE_KINDS, type WriteKind, type WriteLimit, type WriteWindow } from '@forum/contracts';
import { limiterKey } from '@forum/platform';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyWrites, type Taken, type WriteLimits } from '../domain/limits.ts';

/** Each kind's two fixed windows (contracts' WRITE_LIMITS), as counters of one store. */
export type Windows<Counter extends RateLimiterAbstract> = Readonly<Record<WriteKind, readonly Counter[]>>;

/** The counters of `limits`: one per kind and window, made by `counter` with its key prefix (`post:burst`). */
export function windowsOf<Counter extends RateLimiterAbstract>(
  limits: Readonly<Record<WriteKind, WriteLimit>>,
  counter: (prefix: string, window: WriteWindow) => Counter,
): Windows<Counter> {
  return Object.fromEntries(
    WRITE_KINDS.map((kind) => [kind, (['burst', 'sustained'] as const).map((window) => counter(`${kind}:${window}`, limits[kind][window]))]),
  ) as Record<WriteKind, Counter[]>;
}

export interface WindowOptions<Counter extends RateLimiterAbstract> {
  /** How long a key (as its counter stores it) is still refused without asking the store, ms; 0 when it is not. */
  readonly blockedMs?: (counter: Counter, key: string) => number;
  /** A write that could not be given back (the store failed): it stays counted until its window ends. */
  readonly onGiveBackFailed?: (error: unknown) => void;
  /** A write of `kind` refused (429): the metrics count it. */
  readonly onRefused?: (kind: WriteKind) => void;
}

/**
 * The write limits over `windows`, whatever store counts them: a write is taken from both of its
 * kind's windows side by side, and given back to both when either refuses, so a refused request
 * spends nothing.
 */
export function windowedLimits<Counter extends RateLimiterAbstract>(windows: Windows<Counter>, options: WindowOptions<Counter> = {}): WriteLimits {
  /** Uncounts what was counted, unless its window has ended meanwhile (that would start a new one below zero). */
  async function giveBack(key: string, counted: readonly { counter: Counter; until: number }[]) {
    await Promise.all(
      counted.filter(({ until }) => Date.now() < until).map(({ counter }) => counter.reward(key).catch((error: unknown) => options.onGiveBackFailed?.(error))),
    );
  }

  return {
    async take(kind, of) {
      const counters = windows[kind];
      const key = limiterKey(of);
      const blockedMs = options.blockedMs ? Math.max(...counters.map((counter) => options.blockedMs!(counter, key))) : 0;
      const refused = (retryAfterMs: number) => {
        options.onRefused?.(kind);
        return tooManyWrites(kind, retryAfterMs);
      };
      if (blockedMs > 0) throw refused(blockedMs);
      const results = await Promise.allSettled(counters.map((counter) => counter.consume(key)));
      const counted = results.flatMap((result, i) =>
        result.status === 'fulfilled' ? [{ counter: counters[i]!, until: Date.now() + result.value.msBeforeNext }] : [],
      );
      const refusals = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
      if (refusals.length === 0) return { giveBack: () => giveBack(key, counted) } satisfies Taken;
      await giveBack(key, counted);
      const failure = refusals.find((refusal) => !(refusal instanceof RateLimiterRes));
      if (failure) throw failure instanceof Error ? failure : new Error('write limits: a count failed', { cause: failure });
      throw refused(Math.max(...refusals.map((refusal) => (refusal as RateLimiterRes).msBeforeNext)));
    },
  };
}
