import type { UserRegistered } from '@forum/contracts';
import { isoNow as at } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { usersProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('users_projection');
});
afterAll(() => harness?.stop());

const registered = () =>
  harness.event<UserRegistered['data']>('UserRegistered', {
    userId: 'u-ann',
    email: 'ann@forum.test',
    name: 'Ann',
    photoURL: 'ann.png',
    registeredAt: at(),
  });

describe('given a registered user', () => {
  it('when two updates change the name and the photo separately, then both stand', async () => {
    const model = await harness.fresh(usersProjection);
    await model.given([
      registered(),
      harness.event('ProfileUpdated', { userId: 'u-ann', changes: { name: 'Annie' }, updatedAt: at() }),
      harness.event('ProfileUpdated', { userId: 'u-ann', changes: { photoURL: 'new.png' }, updatedAt: at() }),
    ]);
    expect(await model.rows('SELECT name, photo_url FROM users')).toEqual([{ name: 'Annie', photo_url: 'new.png' }]);
  });

  it('when a ProfileUpdated stored as v1 (both fields) is read, then it sets both', async () => {
    const model = await harness.fresh(usersProjection);
    await model.given([registered(), harness.event('ProfileUpdated', { userId: 'u-ann', name: 'Annie', photoURL: 'v1.png', updatedAt: at() }, 'test', 1)]);
    expect(await model.rows('SELECT name, photo_url FROM users')).toEqual([{ name: 'Annie', photo_url: 'v1.png' }]);
  });
});

describe('given one batch that holds what the log says in order (the batch is folded and written set-based)', () => {
  const user = (id: string, name: string) =>
    harness.event<UserRegistered['data']>('UserRegistered', { userId: id, email: `${id}@forum.test`, name, photoURL: '', registeredAt: at() });

  it('when users register, change their profile, become admin and member, and one registers again, then each row is what the log says and the total counts each once', async () => {
    const model = await harness.fresh(usersProjection);
    await model.given([user('u-old', 'Old')]);
    await model.given([
      harness.event('ProfileUpdated', { userId: 'u-old', changes: { name: 'Older' }, updatedAt: at() }),
      user('u-new', 'New'),
      harness.event('ProfileUpdated', { userId: 'u-new', changes: { photoURL: 'n.png' }, updatedAt: at() }),
      harness.event('AdminRoleGranted', { userId: 'u-new', reason: 'admin', grantedAt: at() }),
      user('u-old', 'Again'), // a registration seen again changes nothing
      harness.event('MembershipPurchased', {
        userId: 'u-old',
        attemptId: '00000000-0000-4000-8000-000000000001',
        paymentReference: 'p',
        amountCents: 999,
        currency: 'USD',
        purchasedAt: at(),
      }),
      harness.event('ProfileUpdated', { userId: 'u-new', changes: { name: 'Newer' }, updatedAt: at() }),
    ]);
    expect(await model.rows('SELECT id, name, photo_url, role, is_member FROM users ORDER BY id')).toEqual([
      { id: 'u-new', name: 'Newer', photo_url: 'n.png', role: 'admin', is_member: false },
      { id: 'u-old', name: 'Older', photo_url: '', role: 'user', is_member: true },
    ]);
    expect(await model.rows("SELECT value::int FROM counters WHERE name = 'users'")).toEqual([{ value: 2 }]);
  });

  it('when an update names a user before their registration (never written so, but possible in a log), then it is lost as it would be one event at a time', async () => {
    const model = await harness.fresh(usersProjection);
    await model.given([harness.event('ProfileUpdated', { userId: 'u-ann', changes: { name: 'Early' }, updatedAt: at() }), registered()]);
    expect(await model.rows('SELECT name FROM users')).toEqual([{ name: 'Ann' }]);
  });
});

describe('handles (HandleChanged)', () => {
  const user = (id: string) =>
    harness.event<UserRegistered['data']>('UserRegistered', { userId: id, email: `${id}@forum.test`, name: id, photoURL: '', registeredAt: at() });
  const changed = (userId: string, handle: string) => harness.event('HandleChanged', { userId, handle, source: 'profile', changedAt: at() });

  it('when a member releases a handle and another takes it in one batch, in another case, then each row holds the handle the log says', async () => {
    const model = await harness.fresh(usersProjection);
    await model.given([user('u-ann'), changed('u-ann', 'ann'), user('u-bob'), changed('u-bob', 'bob')]);
    await model.given([changed('u-ann', 'annie'), changed('u-bob', 'ANN'), user('u-cy'), changed('u-cy', 'bob')]);
    expect(await model.rows('SELECT id, handle FROM users ORDER BY id')).toEqual([
      { id: 'u-ann', handle: 'annie' },
      { id: 'u-bob', handle: 'ANN' },
      { id: 'u-cy', handle: 'bob' },
    ]);
  });

  it('when an erased member’s handle reads as their erased name, then their row has none until the erasure removes it', async () => {
    const model = await harness.fresh(usersProjection);
    await model.given([user('u-ann'), changed('u-ann', 'Deleted user'), user('u-bob'), changed('u-bob', 'Deleted user')]);
    expect(await model.rows('SELECT id, handle FROM users ORDER BY id')).toEqual([
      { id: 'u-ann', handle: null },
      { id: 'u-bob', handle: null },
    ]);
  });
});
