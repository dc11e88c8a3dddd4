import type { UserRegistered } from '@forum/contracts';
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
    registeredAt: new Date().toISOString(),
  });
const at = () => new Date().toISOString();

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
