import type { Logger } from './logger.ts';
import { listenForNotifications } from './notification-listener.ts';
import { abortableSleep } from './sleep.ts';

export interface WakeLoopOptions {
  /** For the session that LISTENs on `channels`. */
  readonly connectionString: string;
  /** A NOTIFY on one of them wakes the loop (and so does each new LISTEN: what was sent meanwhile is looked for). */
  readonly channels: readonly string[];
  readonly applicationName: string;
  readonly logger: Logger;
  /** How often it wakes anyway (another process's work missed, a failure to try again). */
  readonly pollMs: number;
  /** The least time between the starts of two passes (a busy channel wakes it at most this often). */
  readonly minIntervalMs?: number;
  /** One pass of the work; a failure is logged with `failure` and tried again at the next wake. */
  readonly pass: () => Promise<void>;
  readonly failure: string;
}

export interface WakeLoop {
  /** A pass now, or right after the one under way. */
  wake(): void;
  /** A pass in `ms` (the next thing due), replacing an earlier such wake. */
  wakeIn(ms: number): void;
  /** No pass after this one; settles when the one under way has ended. */
  stop(): Promise<void>;
}

/**
 * The loop of a reactor that works through rows in PostgreSQL: one pass at a time, woken by a
 * NOTIFY (LISTEN on its own session, connected again after a loss), by a poll, and by a timer
 * for the next thing due; wakes during a pass make one more pass after it.
 */
export function startWakeLoop(options: WakeLoopOptions): WakeLoop {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let lastStart = 0;
  const stopping = new AbortController();

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        const wait = lastStart + (options.minIntervalMs ?? 0) - Date.now();
        if (wait > 0) await abortableSleep(wait, stopping.signal);
        if (stopped) break;
        lastStart = Date.now();
        await options.pass().catch((error) => options.logger.warn({ err: error }, options.failure));
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  }

  const listener = listenForNotifications({
    connectionString: options.connectionString,
    channels: options.channels,
    applicationName: options.applicationName,
    logger: options.logger,
    onNotification: wake,
    onListening: wake,
  });
  const poll = setInterval(wake, options.pollMs);
  poll.unref();
  void listener.started.catch(() => wake());

  return {
    wake,
    wakeIn(ms) {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(wake, Math.max(0, ms));
      timer.unref();
    },
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      await listener.close();
      await running;
    },
  };
}
