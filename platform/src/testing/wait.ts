/** Polls `probe` until `ok` holds for its value (then returns it), or fails with the last value after `timeoutMs`. */
export async function waitFor<T>(probe: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
