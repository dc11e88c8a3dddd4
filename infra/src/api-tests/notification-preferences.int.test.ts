import { DEFAULT_DELIVERIES, type NotificationPreferences } from '@forum/contracts';
import { unsubscribeSecret, unsubscribeTokens } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { given } from '../testing/given.ts';

/**
 * A member's notification preferences through the gateway (docs/notifications.md#preferences): chosen with
 * PUT, read with GET (the defaults where never chosen), and changed by an email's unsubscribe link signed
 * with the secret the forum keeps in PostgreSQL. The refusals are the route tests'
 * (command-service/src/http/notification-preferences.route.test.ts).
 */
let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(() => forum?.stop());

const { registeredUser } = given(() => forum);
const preferencesOf = (token: string) => expectStatus<NotificationPreferences>(forum.api('/api/me/notification-preferences', { token }));

describe('GET and PUT /api/me/notification-preferences', () => {
  it("answers the defaults until the member chooses, then their choices beside the defaults; a visitor's read is 401", async () => {
    const member = await registeredUser('Pia');
    expect(await preferencesOf(member.token)).toEqual({ preferences: DEFAULT_DELIVERIES });
    await forum.call('PUT', '/api/me/notification-preferences', { token: member.token, body: { reply: 'digest', 'followed-tag': 'off' } });
    expect(await preferencesOf(member.token)).toEqual({ preferences: { ...DEFAULT_DELIVERIES, reply: 'digest', 'followed-tag': 'off' } });
    expect((await forum.api('/api/me/notification-preferences')).status).toBe(401);
  });
});

describe('POST /api/unsubscribe?token=…', () => {
  it("takes a link signed with the forum's own secret, with the one-click form and no sign-in: its kinds read 'app'", async () => {
    const member = await registeredUser('Quin');
    const token = unsubscribeTokens(await unsubscribeSecret(forum.db)).sign({ userId: member.id, kinds: ['reply', 'mention'] });
    const answer = await expectStatus<{ kinds: string[] }>(
      forum.api(`/api/unsubscribe?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    );
    expect(answer.kinds).toEqual(['reply', 'mention']);
    expect(await preferencesOf(member.token)).toEqual({ preferences: { ...DEFAULT_DELIVERIES, reply: 'app', mention: 'app' } });
  });
});
