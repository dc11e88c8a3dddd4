import { commentLink, type NotificationPreferences, type Unsubscribed } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';

/**
 * Notifications by email over the whole forum (docs/notifications.md#email): the notifications
 * projection's real rows, the members' preferences and the realm's verified addresses, through the
 * mailer that `npm start` runs, into the development mailbox; the one-click unsubscribe of a mail's
 * own link.
 */
let forum: TestForum;
let admin: { id: string; token: string };
let ann: NewUser;
let ben: NewUser;
let uma: NewUser;

beforeAll(async () => {
  forum = await startTestForum({
    NOTIFICATION_EMAIL_UNSEEN_MS: '1000',
    NOTIFICATION_EMAIL_BATCH_MS: '600000',
    NOTIFICATION_DIGEST_INTERVAL_MS: '2000',
    NOTIFICATION_MAIL_POLL_MS: '500',
  });
  admin = await forum.demoAdmin();
  ann = await forum.newUser('Ann Mailed', { emailVerified: true });
  ben = await forum.newUser('Ben Mailer', { emailVerified: true });
  uma = await forum.newUser('Uma Unverified');
  for (const user of [ann, ben, uma]) await forum.register(user.token);
  for (const user of [ann, ben, uma]) await forum.call('PATCH', `/api/users/membership/${user.email}`, { token: admin.token });
}, 60_000);
afterAll(() => forum?.stop());

type Mail = { recipient: string; subject: string; body: string };
const mailTo = async (user: NewUser): Promise<Mail[]> => {
  const { rows } = await forum.db.raw<{ rows: Mail[] }>('SELECT recipient, subject, body FROM identity.mailbox WHERE recipient = ? ORDER BY id', [user.email]);
  return rows;
};
const post = async (by: NewUser, title: string, tags: string[] = []) =>
  forum.call<{ id: string }>('POST', '/api/posts', { token: by.token, body: { title, description: 'About it', tags }, expect: 201 });
const comment = async (by: NewUser, postId: string, text: string) =>
  forum.call<{ id: string }>('POST', '/api/comments', { token: by.token, body: { postId, text }, expect: 201 });
const within = { timeout: 20_000, interval: 200 };

describe('notifications by email', () => {
  it('mails a reply left unseen, once, naming who answered and linking to the comment; never an unverified address', async () => {
    const { id: postId } = await post(ann, 'Ann wants mail');
    const first = await comment(ben, postId, 'Ben answers');
    const { id: umaPost } = await post(uma, 'Uma wants mail');
    await comment(ben, umaPost, 'Ben answers Uma');
    const [mail] = await vi.waitFor(async () => {
      const mails = await mailTo(ann);
      expect(mails).toHaveLength(1);
      return mails;
    }, within);
    expect(mail!.subject).toContain('Ann wants mail');
    expect(mail!.body).toContain(ben.name);
    expect(mail!.body).toContain(commentLink(postId, first.id));
    // a second comment collapses into the notification already mailed; the batch window holds any other
    await comment(ben, postId, 'Ben again');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await mailTo(ann)).toHaveLength(1);
    expect(await mailTo(uma)).toEqual([]);
  });

  it('unsubscribes in one click from the mail’s own link, without signing in; a forged link changes nothing', async () => {
    const [mail] = await mailTo(ann);
    const token = /\/unsubscribe\?token=([^\s"<]+)/.exec(mail!.body)?.[1];
    expect(token).toBeDefined();
    const forged = `${decodeURIComponent(token!).slice(0, -2)}xx`;
    const refused = await forum.api(`/api/unsubscribe?token=${encodeURIComponent(forged)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('UNSUBSCRIBE_LINK_INVALID');
    const oneClick = await forum.api(`/api/unsubscribe?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(((await oneClick.json()) as Unsubscribed).kinds).toEqual(['reply']);
    const { preferences } = await forum.call<NotificationPreferences>('GET', '/api/me/notification-preferences', { token: ann.token });
    expect(preferences.reply).toBe('app');
  });

  it('gathers a followed tag’s new posts in the daily digest', async () => {
    const tag = `mail${Date.now() % 100000}`;
    await forum.call('POST', '/api/admin/tags', { token: admin.token, body: { name: tag }, expect: 201 });
    await forum.call('PUT', `/api/tags/${tag}/follow`, { token: ann.token });
    await post(ben, 'Ben posts in the tag', [tag]);
    const digest = await vi.waitFor(async () => {
      const found = (await mailTo(ann)).find((mail) => mail.subject.includes('Your digest'));
      expect(found).toBeDefined();
      return found!;
    }, within);
    expect(digest.body).toContain('Ben posts in the tag');
  });
});
