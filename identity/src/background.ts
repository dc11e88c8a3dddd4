import type { Logger } from '@forum/platform';

/** Work a request starts and does not wait for (mails): its failures are logged, and closing the realm waits for it. */
export function createBackgroundJobs(log: Logger) {
  const background = new Set<Promise<void>>();
  function inBackground(work: () => Promise<void>) {
    const job = work()
      .catch((err: unknown) => log.error({ err }, 'identity background job failed'))
      .finally(() => background.delete(job));
    background.add(job);
  }
  return { run: inBackground, settled: () => Promise.allSettled([...background]) };
}

export type BackgroundJobs = ReturnType<typeof createBackgroundJobs>;
