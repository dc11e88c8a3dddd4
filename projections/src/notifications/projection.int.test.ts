import { isoNow as at, uuidOf } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { notificationsProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('notifications_projection');
});
afterAll(() => harness?.stop());

const warned = (n: number, userId = 'u-ann') => harness.event('UserWarned', { warningId: uuidOf(n), userId, reason: `Reason ${n}`, warnedBy: 'u-admin', warnedAt: at() });
const read = (ids: number[], userId = 'u-ann') => harness.event('WarningsRead', { userId, warningIds: ids.map(uuidOf), readAt: at() });

describe('given warnings before the batch and in it', () => {
  it('when they are read in the batch, then those read before and after their warning in the log are as the log says', async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([warned(1), warned(2)]);
    await model.given([
      read([1]),
      read([3]), // names a warning that does not exist yet: nothing to mark
      warned(3),
      warned(4),
      read([2, 4]),
      read([1], 'u-ben'), // only the user's own warnings
      warned(5),
    ]);
    expect(await model.rows('SELECT id, read FROM notifications ORDER BY id')).toEqual([
      { id: uuidOf(1), read: true },
      { id: uuidOf(2), read: true },
      { id: uuidOf(3), read: false },
      { id: uuidOf(4), read: true },
      { id: uuidOf(5), read: false },
    ]);
  });
});
