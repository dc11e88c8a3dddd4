import { describe, expect, it } from 'vitest';
import { accountDisabled, aPosition, anError, commandApiSpec, member, registered, visitor } from '../testing/index.ts';

/** A member's notification preferences and an email's one-click unsubscribe (notification-preferences.ts). */
const api = commandApiSpec();
const alice = member('Alice');
const bob = member('Bob');

describe('PUT /api/me/notification-preferences', () => {
  it("appends NotificationPreferencesChanged on the member's notifications stream with only the kinds that change", async () => {
    await api.given(registered(alice));
    const choose = (body: unknown) => alice.put('/api/me/notification-preferences', body);
    // reply is 'email' by default: choosing it changes nothing; mention changes
    await api.when(choose({ reply: 'email', mention: 'digest' })).then(200, { id: alice.id, position: aPosition }, [
      {
        streamId: `notifications-${alice.id}`,
        type: 'NotificationPreferencesChanged',
        data: { userId: alice.id, changes: { mention: 'digest' }, via: 'settings' },
        metadata: { actorId: alice.id },
      },
    ]);
    const { appended } = await api.when(choose({ mention: 'digest', 'followed-tag': 'off', reply: 'app' })).then(200);
    expect(appended).toHaveLength(1);
    expect((appended[0]!.data as { changes: unknown }).changes).toEqual({ 'followed-tag': 'off', reply: 'app' });
  });

  it('appends nothing when nothing changes (the defaults, or what was chosen): 200 without a position', async () => {
    await api.given(registered(alice), alice.put('/api/me/notification-preferences', { warning: 'digest' }));
    await api
      .when(alice.put('/api/me/notification-preferences', { reply: 'email', 'followed-post': 'app', warning: 'digest' }))
      .then(200, { id: alice.id }, []);
  });

  it('refuses a visitor (401), a disabled member (401), no kind, an unknown kind or delivery (400); appends nothing', async () => {
    await api.given(registered(alice), registered(bob), accountDisabled(bob));
    const choose = (body?: unknown) => alice.put('/api/me/notification-preferences', body);
    await api.when(visitor.put('/api/me/notification-preferences', { reply: 'off' })).then(401, anError('UNAUTHENTICATED'));
    await api.when(bob.put('/api/me/notification-preferences', { reply: 'off' })).then(401, anError('ACCOUNT_DISABLED'));
    await api.when(choose({})).then(400, anError('VALIDATION_FAILED'));
    await api.when(choose()).then(400, anError('VALIDATION_FAILED'));
    await api.when(choose({ likes: 'off' })).then(400, anError('VALIDATION_FAILED'));
    await api.when(choose({ reply: 'sms' })).then(400, anError('VALIDATION_FAILED'));
    await api.when(choose({ reply: ['off'] })).then(400, anError('VALIDATION_FAILED'));
    // a moderator's warning always reaches the member; announcements go by no email
    await api.when(choose({ warning: 'off' })).then(400, anError('VALIDATION_FAILED', { details: { warning: ['warning may be app, email, digest'] } }));
    await api.when(choose({ announcement: 'email' })).then(400, anError('VALIDATION_FAILED'));
  });
});

describe('POST /api/unsubscribe?token=… (RFC 8058 one-click)', () => {
  const link = (token: string) => `/api/unsubscribe?token=${encodeURIComponent(token)}`;
  const oneClick = (token: string) => visitor.send('POST', link(token), 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded');

  it("takes the mail client's one-click form without a sign-in: the link's kinds become 'app' (200 {kinds, position}); again, nothing is appended", async () => {
    await api.given(registered(alice));
    const token = api.unsubscribeTokens.sign({ userId: alice.id, kinds: ['reply', 'mention'] });
    await api.when(oneClick(token)).then(200, { kinds: ['reply', 'mention'], position: aPosition }, [
      {
        streamId: `notifications-${alice.id}`,
        type: 'NotificationPreferencesChanged',
        data: { userId: alice.id, changes: { reply: 'app', mention: 'app' }, via: 'unsubscribe' },
        metadata: { actorId: alice.id },
      },
    ]);
    await api.when(oneClick(token)).then(200, { kinds: ['reply', 'mention'] }, []);
  });

  it("takes forum-web's page's post with no body, and a JSON body saying One-Click", async () => {
    await api.given(registered(alice));
    await api
      .when(visitor.post(link(api.unsubscribeTokens.sign({ userId: alice.id, kinds: ['followed-tag'] }))))
      .then(200, { kinds: ['followed-tag'], position: aPosition });
    await api
      .when(visitor.post(link(api.unsubscribeTokens.sign({ userId: alice.id, kinds: ['reply'] })), { 'List-Unsubscribe': 'One-Click' }))
      .then(200, { kinds: ['reply'], position: aPosition });
  });

  it('refuses a forged or altered token, and one for a member the forum does not know or erased, with 400 UNSUBSCRIBE_LINK_INVALID; appends nothing', async () => {
    await api.given(registered(alice), registered(bob), bob.delete('/api/me', { content: 'keep' }));
    const token = api.unsubscribeTokens.sign({ userId: alice.id, kinds: ['reply'] });
    const [, signature] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ u: alice.id, k: ['reply', 'mention', 'warning'] })).toString('base64url')}.${signature}`;
    for (const bad of [forged, `${token}x`, 'not-a-token', token.split('.')[0]!]) {
      await api.when(oneClick(bad)).then(400, anError('UNSUBSCRIBE_LINK_INVALID'));
    }
    await api.when(oneClick(api.unsubscribeTokens.sign({ userId: bob.id, kinds: ['reply'] }))).then(400, anError('UNSUBSCRIBE_LINK_INVALID'));
    await api.when(oneClick(api.unsubscribeTokens.sign({ userId: 'nobody', kinds: ['reply'] }))).then(400, anError('UNSUBSCRIBE_LINK_INVALID'));
  });

  it('refuses no token or one too long (400 VALIDATION_FAILED), another form body (400), and other media types (415); appends nothing', async () => {
    await api.given(registered(alice));
    const token = api.unsubscribeTokens.sign({ userId: alice.id, kinds: ['reply'] });
    await api.when(visitor.post('/api/unsubscribe')).then(400, anError('VALIDATION_FAILED'));
    await api.when(oneClick('x'.repeat(1025))).then(400, anError('VALIDATION_FAILED'));
    await api.when(visitor.send('POST', link(token), 'List-Unsubscribe=Later', 'application/x-www-form-urlencoded')).then(400, anError('VALIDATION_FAILED'));
    await api.when(visitor.send('POST', link(token), 'a=b', 'application/x-www-form-urlencoded')).then(400, anError('VALIDATION_FAILED'));
    await api.when(visitor.send('POST', link(token), 'List-Unsubscribe=One-Click', 'text/plain')).then(415, anError('UNSUPPORTED_MEDIA_TYPE'));
    await api.when(visitor.send('POST', link(token), Buffer.from([0xff, 0xfe]), 'application/x-www-form-urlencoded')).then(400, anError('VALIDATION_FAILED'));
  });

  it('leaves other routes refusing a form body (415)', async () => {
    await api.given(registered(alice));
    await api
      .when(alice.send('PUT', '/api/me/notification-preferences', 'reply=off', 'application/x-www-form-urlencoded'))
      .then(415, anError('UNSUPPORTED_MEDIA_TYPE'));
  });
});
