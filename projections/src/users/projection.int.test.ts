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

describe('moderators and suspensions (issue #43)', () => {
  const user = (id: string) =>
    harness.event<UserRegistered['data']>('UserRegistered', { userId: id, email: `${id}@forum.test`, name: id, photoURL: '', registeredAt: at() });
  const granted = (userId: string) => harness.event('ModeratorRoleGranted', { userId, grantedBy: 'u-admin', grantedAt: at() });
  const revoked = (userId: string) => harness.event('ModeratorRoleRevoked', { userId, revokedBy: 'u-admin', revokedAt: at() });
  const suspended = (userId: string, reason: string, until: string | null) =>
    harness.event('MemberSuspended', { userId, reason, until, suspendedBy: 'u-mod', suspendedAt: at() });
  const lifted = (userId: string) => harness.event('SuspensionLifted', { userId, liftedBy: 'u-mod', liftedAt: at() });
  const rows = (model: Awaited<ReturnType<typeof harness.fresh>>) =>
    model.rows(
      `SELECT id, role, suspended, suspension_reason, to_char(suspended_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS until FROM users ORDER BY id`,
    );
  const events = () => [
    user('u-ann'),
    granted('u-ann'),
    user('u-bob'),
    granted('u-bob'),
    revoked('u-bob'),
    user('u-cy'),
    harness.event('AdminRoleGranted', { userId: 'u-cy', reason: 'admin', grantedAt: at() }),
    granted('u-cy'), // never decided so, but an admin stays one
    revoked('u-cy'),
    suspended('u-bob', 'Spam', '2026-12-02T14:00:00.000Z'),
    user('u-dee'),
    suspended('u-dee', 'First', null),
    suspended('u-dee', 'Rude', '2026-12-09T10:00:00.000Z'),
    suspended('u-ann', 'Gone', null),
    lifted('u-ann'),
  ];
  const expected = [
    { id: 'u-ann', role: 'moderator', suspended: false, suspension_reason: null, until: null },
    { id: 'u-bob', role: 'user', suspended: true, suspension_reason: 'Spam', until: '2026-12-02T14:00' },
    { id: 'u-cy', role: 'admin', suspended: false, suspension_reason: null, until: null },
    { id: 'u-dee', role: 'user', suspended: true, suspension_reason: 'Rude', until: '2026-12-09T10:00' },
  ];

  it('when roles are granted and revoked and members suspended and lifted in one batch, then each row is what the log says', async () => {
    const model = await harness.fresh(usersProjection);
    await model.given(events());
    expect(await rows(model)).toEqual(expected);
  });

  it('when the same events come one at a time, then the rows are the same', async () => {
    const model = await harness.fresh(usersProjection);
    for (const event of events()) await model.given([event]);
    expect(await rows(model)).toEqual(expected);
  });
});
