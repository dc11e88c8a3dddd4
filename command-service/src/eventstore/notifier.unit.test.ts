import { describe, expect, it } from 'vitest';
import { CoalescingNotifier } from './notifier.ts';

describe('CoalescingNotifier', () => {
  it('sends one notification at a time and the latest of each key that came meanwhile, none lost', async () => {
    const sent: string[][] = [];
    let release!: () => void;
    const notifier = new CoalescingNotifier(async (payloads) => {
      sent.push([...payloads]);
      await new Promise<void>((resolve) => (release = resolve));
    }, (payload) => payload.split(':')[0]!);
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
});
