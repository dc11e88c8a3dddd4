import { afterEach, describe, expect, it, vi } from 'vitest';
import { anyNumber } from '@forum/platform/testing';
import { CoalescingNotifier, NOTIFY_GAP_MS } from './notifier.ts';

describe('CoalescingNotifier', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends one notification at a time and the latest of each key that came meanwhile, none lost', async () => {
    const sent: string[][] = [];
    let release!: () => void;
    const notifier = new CoalescingNotifier(
      async (payloads) => {
        sent.push([...payloads]);
        await new Promise<void>((resolve) => (release = resolve));
      },
      (payload) => payload.split(':')[0]!,
      0,
    );
    notifier.notify('posts:1');
    // while the first is in flight: two builds move, one of them twice
    notifier.notify('tags:5');
    notifier.notify('users:7');
    notifier.notify('tags:6');
    expect(sent).toEqual([['posts:1']]);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([['posts:1'], ['users:7', 'tags:6']]);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(2);
    notifier.notify('posts:2');
    expect(sent.at(-1)).toEqual(['posts:2']);
  });

  it(`starts sends at least the gap apart (${NOTIFY_GAP_MS} ms by default): an idle channel at once, a busy one gathered`, async () => {
    // the clock is the test's: a busy machine cannot stretch a wait past the gap
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const gapMs = 60;
    const sent: { at: number; payloads: string[] }[] = [];
    const notifier = new CoalescingNotifier(
      (payloads) => {
        sent.push({ at: performance.now(), payloads: [...payloads] });
        return Promise.resolve();
      },
      undefined,
      gapMs,
    );
    const start = performance.now();
    notifier.notify('a');
    expect(sent).toEqual([{ at: anyNumber, payloads: ['a'] }]); // at once
    await vi.advanceTimersByTimeAsync(5);
    // the first send is done; these come within the gap: one send for all of them, when the gap is over
    notifier.notify('b');
    notifier.notify('c');
    notifier.notify('b');
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(gapMs + 30);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.payloads).toEqual(['c', 'b']);
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(gapMs - 1);
    // idle for longer than the gap: at once again
    await vi.advanceTimersByTimeAsync(gapMs + 10);
    const before = performance.now();
    notifier.notify('d');
    expect(sent).toHaveLength(3);
    expect(sent[2]!.at - before).toBeLessThan(gapMs);
    expect(sent[2]!.at - start).toBeGreaterThan(gapMs);
  });
});
