import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { notificationsProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('notifications_projection');
});
afterAll(() => harness?.stop());

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = () => new Date().toISOString();
const warned = (n: number, userId = 'u-ann') => harness.event('UserWarned', { warningId: uuid(n), userId, reason: `Reason ${n}`, warnedBy: 'u-admin', warnedAt: at() });
const read = (ids: number[], userId = 'u-ann') => harness.event('WarningsRead', { userId, warningIds: ids.map(uuid), readAt: at() });

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
      { id: uuid(1), read: true },
      { id: uuid(2), read: true },
      { id: uuid(3), read: false },
      { id: uuid(4), read: true },
      { id: uuid(5), read: false },
    ]);
  });
});
