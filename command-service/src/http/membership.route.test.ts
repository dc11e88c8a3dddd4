import { FREE_POST_LIMIT } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { anAdmin, aPosition, anError, commandApiSpec, member, registered, visitor } from '../testing/index.ts';
import { matching } from '@forum/platform/testing';

/**
 * Gold membership with the demo payment provider (no wait; it declines an email with "+decline").
 * An admin's purchase for another user finds them by email through the identity provider (here: an
 * account for each member the log registered); the realm's own lookup is in infra's API tests.
 */
const api = commandApiSpec();
const una = member('Una');
const zed = member('Zed');
const ada = member('Ada Admin');
const buy = (email: string) => `/api/users/membership/${encodeURIComponent(email)}`;

describe('PATCH /api/users/membership/:email', () => {
  it('charges once and makes the caller a member: 200 {id, position}; asking again answers 409 ALREADY_MEMBER without a charge', async () => {
    await api.given(registered(una));
    await api.when(una.patch(buy(una.email))).then(200, { id: una.id, position: aPosition }, [
      { streamId: `user-${una.id}`, type: 'MembershipPurchaseStarted', data: { userId: una.id, amountCents: 999, currency: 'USD' } },
      { streamId: `user-${una.id}`, type: 'MembershipPurchased', data: { amountCents: 999, currency: 'USD', paymentReference: matching(/^demo_/) } },
    ]);
    await api.when(una.patch(buy(una.email))).then(409, anError('ALREADY_MEMBER'));
  });

  it('charges once when two purchases arrive at once: one 200, one 409', async () => {
    await api.given(registered(una));
    const outcomes = await Promise.all([1, 2].map(() => api.when(una.patch(buy(una.email))).outcome));
    expect(outcomes.map((o) => o.status).sort()).toEqual([200, 409]);
    expect((await api.log()).map((e) => e.type)).toEqual(['UserRegistered', 'MembershipPurchaseStarted', 'MembershipPurchased']);
  });

  it('changes nothing but the attempt when the payment fails: 422 PAYMENT_FAILED, still a free user', async () => {
    const wes = member('Wes', { email: 'wes+decline@forum.test' });
    await api.given(registered(wes));
    await api
      .when(wes.patch(buy(wes.email)))
      .then(422, anError('PAYMENT_FAILED', { message: 'Payment failed. Please try again.', details: { reason: 'card_declined' } }), [
        { type: 'MembershipPurchaseStarted' },
        { type: 'MembershipPurchaseFailed', data: { reason: 'card_declined' } },
      ]);
    await api.given(...Array.from({ length: FREE_POST_LIMIT }, (_, i) => wes.post('/api/posts', { title: `Post ${i}`, description: 'x', tags: [] })));
    await api.when(wes.post('/api/posts', { title: 'One too many', description: 'x', tags: [] })).then(422, anError('POST_LIMIT_REACHED'));
  });

  it('lifts the free post limit', async () => {
    await api.given(una.patch(buy(una.email)));
    for (let i = 0; i <= FREE_POST_LIMIT; i++) await api.when(una.post('/api/posts', { title: `Member post ${i}`, description: 'x', tags: [] })).then(201);
  });

  it("answers 401 without a token, 403 for another user's email (before anything is looked up), 400 for a non-email or a body; appends nothing", async () => {
    await api.given(registered(una), registered(zed), anAdmin(ada));
    await api.when(visitor.patch(buy(una.email))).then(401, anError('UNAUTHENTICATED'));
    await api.when(zed.patch(buy(una.email))).then(403, anError('FORBIDDEN'));
    await api.when(zed.patch(buy('nobody@forum.test'))).then(403, anError('FORBIDDEN'));
    await api.when(ada.patch(buy('not-an-email'))).then(400, anError('VALIDATION_FAILED'));
    await api.when(ada.patch('/api/users/membership/a%00b%40example.com')).then(400, anError('VALIDATION_FAILED'));
    await api.when(una.patch(buy(una.email), { anything: true })).then(400, anError('VALIDATION_FAILED'));
  });

  it('lets the admin (a free user) buy for themself', async () => {
    await api.given(anAdmin(ada));
    await api.when(ada.patch(buy(ada.email))).then(200, { id: ada.id, position: aPosition });
  });
});
