import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits `ms`, or until `signal` aborts, and resolves either way: a loop's pause that its
 * stop cuts short. (node's `setTimeout` rejects with an AbortError on abort; any other
 * error still rejects.)
 */
export async function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  await delay(ms, undefined, { signal }).catch((error: unknown) => {
    if (!(error instanceof Error && error.name === 'AbortError')) throw error;
  });
}
