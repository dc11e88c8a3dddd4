import { isoNow as at } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { notificationPreferencesProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('notification_preferences_projection');
});
afterAll(() => harness?.stop());

const chose = (userId: string, changes: Record<string, string>, via = 'settings') =>
  harness.event('NotificationPreferencesChanged', { userId, changes, via, changedAt: at() });
const erased = (userId: string) => harness.event('AccountErased', { userId, content: 'kept', erasedAt: at() });

describe("given members' choices of delivery", () => {
  it('keeps a row per member and chosen kind, the latest choice in log order (in a batch and across batches)', async () => {
    const model = await harness.fresh(notificationPreferencesProjection);
    await model.given([chose('u-ann', { reply: 'digest', mention: 'off' }), chose('u-ben', { 'followed-tag': 'email' }), chose('u-ann', { reply: 'off' })]);
    await model.given([chose('u-ann', { mention: 'app' }, 'unsubscribe')]);
    expect(await model.rows('SELECT user_id, kind, delivery FROM preferences ORDER BY user_id, kind')).toEqual([
      { user_id: 'u-ann', kind: 'mention', delivery: 'app' },
      { user_id: 'u-ann', kind: 'reply', delivery: 'off' },
      { user_id: 'u-ben', kind: 'followed-tag', delivery: 'email' },
    ]);
  });

  it("deletes an erased member's rows, also when they chose in the same batch before the erasure, and keeps others'", async () => {
    const model = await harness.fresh(notificationPreferencesProjection);
    await model.given([chose('u-ann', { reply: 'digest' })]);
    await model.given([chose('u-ann', { mention: 'off' }), chose('u-ben', { reply: 'off' }), erased('u-ann')]);
    expect(await model.rows('SELECT user_id, kind FROM preferences ORDER BY user_id, kind')).toEqual([{ user_id: 'u-ben', kind: 'reply' }]);
  });
});
