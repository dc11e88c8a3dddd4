import { describe, expect, it } from 'vitest';
import { abortableSleep } from './sleep.ts';

describe('abortableSleep', () => {
  it('resolves after its time when nothing aborts it', async () => {
    const started = performance.now();
    await abortableSleep(30, new AbortController().signal);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('resolves, without rejecting, as soon as its signal aborts', async () => {
    const abort = new AbortController();
    const sleeping = abortableSleep(60_000, abort.signal);
    abort.abort();
    await expect(sleeping).resolves.toBeUndefined();
  });

  it('resolves at once on a signal already aborted', async () => {
    await expect(abortableSleep(60_000, AbortSignal.abort())).resolves.toBeUndefined();
  });
});
