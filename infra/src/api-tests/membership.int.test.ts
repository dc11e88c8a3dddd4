import { HEADER_MIN_POSITION, type Me } from '@forum/contracts';
import { matching } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum({ PAYMENT_DEMO_DELAY_MS: '50' });
});
afterAll(() => forum?.stop());

const buy = (email: string, token?: string) =>
  forum.api(`/api/users/membership/${encodeURIComponent(email)}`, { method: 'PATCH', ...(token ? { token } : {}) });
const types = async (id: string) => (await forum.store.readStream(`user-${id}`)).events.map((e) => e.type);
const me = async (token: string, position?: string) =>
  (await (await forum.api('/api/me', { token, ...(position ? { headers: { [HEADER_MIN_POSITION]: position } } : {}) })).json()) as Me;

describe('PATCH /api/users/membership/:email', () => {
  it('charges once and makes the caller a member; asking again answers 409 ALREADY_MEMBER without a charge', async () => {
    const user = await forum.newUser('Una');
    const bought = await buy(user.email, user.token);
    expect(bought.status).toBe(200);
    const { position } = (await bought.json()) as { position: string };
    expect(await me(user.token, position)).toMatchObject({ isMember: true });
    const again = await buy(user.email, user.token);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('ALREADY_MEMBER');
    expect(await types(user.id)).toEqual(['UserRegistered', 'MembershipPurchaseStarted', 'MembershipPurchased']);
    const { events } = await forum.store.readStream(`user-${user.id}`);
    expect(events[2]!.data).toMatchObject({ amountCents: 999, currency: 'USD', paymentReference: matching(/^demo_/) });
  });

  it('changes nothing when the payment fails: 422 PAYMENT_FAILED and still a free user', async () => {
    const email = `wes+decline-${Date.now()}@forum.test`;
    const { id } = await forum.realm!.accounts.create({ email, password: 'Secret#2026', name: 'Wes' });
    const user = { id, email, token: await forum.tokenFor(email, 'Secret#2026') };
    const failed = await buy(user.email, user.token);
    expect(failed.status).toBe(422);
    expect(await failed.json()).toMatchObject({ error: { code: 'PAYMENT_FAILED', message: 'Payment failed. Please try again.' } });
    expect(await me(user.token)).toMatchObject({ isMember: false });
    expect(await types(user.id)).toEqual(['UserRegistered', 'MembershipPurchaseStarted', 'MembershipPurchaseFailed']);
  });

  it('answers 401 without a token, 403 for another user, and lets an admin buy for a user (404 for an unknown email)', async () => {
    const user = await forum.newUser('Yan');
    const other = await forum.newUser('Zed');
    await forum.register(user.token);
    expect((await buy(user.email)).status).toBe(401);
    expect((await buy(user.email, other.token)).status).toBe(403);
    const admin = await forum.tokenFor('admin@forum.local');
    expect((await buy(user.email, admin)).status).toBe(200);
    expect(await types(user.id)).toContain('MembershipPurchased');
    expect((await buy('nobody@forum.test', admin)).status).toBe(404);
    expect((await buy('not-an-email', admin)).status).toBe(400);
  });
});
