import type { LogPosition } from '@forum/contracts';
import { abortableSleep } from '@forum/platform';
import type { EventStore, SubscribeOptions, Subscription } from './types.ts';

/** Subscribers that have caught up with the log, waiting for news of a commit. */
export class WaitingSubscribers {
  private waiters = new Set<() => void>();

  wakeAll(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves at the next `wakeAll`, after `timeoutMs`, or when `abort` fires. */
  wait(timeoutMs: number, abort: AbortSignal): Promise<void> {
    if (abort.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        abort.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      abort.addEventListener('abort', done, { once: true });
    });
  }
}

/**
 * Reads the log after `options.after` batch by batch into `options.onBatch`; at the head, waits
 * for a commit (`waitForCommit`, at most `pollIntervalMs`) and reads again. `eventsBeyond` says
 * whether the log holds committed events after a position (which, when a read found none, wait
 * behind a transaction that began earlier and is still open).
 */
export function runSubscription(
  store: EventStore,
  eventsBeyond: (position: LogPosition) => Promise<boolean>,
  waitForCommit: (timeoutMs: number, abort: AbortSignal) => Promise<void>,
  pollIntervalMs: number,
  options: SubscribeOptions,
): Subscription {
  const abort = new AbortController();
  const batchSize = options.batchSize ?? 500;
  const done = (async () => {
    let position = options.after;
    let backoff = 5;
    while (!abort.signal.aborted) {
      const events = await store.readAll(position, batchSize, { open: options.open });
      if (events.length > 0) {
        await options.onBatch(events);
        position = events.at(-1)!.position;
        backoff = 5;
        continue;
      }
      // Nothing below the horizon. If newer events exist, a transaction that began
      // earlier is still open and holds them back: look again shortly, since its
      // end may bring no NOTIFY (it may write no event at all).
      if (await eventsBeyond(position)) {
        await abortableSleep(backoff, abort.signal);
        backoff = Math.min(backoff * 2, 200);
      } else {
        await waitForCommit(pollIntervalMs, abort.signal);
      }
    }
  })();
  done.catch(() => {});
  return {
    done,
    async stop() {
      abort.abort();
      await done.catch(() => {});
    },
  };
}
