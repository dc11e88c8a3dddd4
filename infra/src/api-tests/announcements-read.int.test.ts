import type { Announcement, Notifications } from '@forum/contracts';
import { anyString } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minPositionHeaders, startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { given } from '../testing/given.ts';
import { calls } from './calls.ts';

/**
 * A member's announcements read mark, kept by the server (issue #31 item 5): marked on one
 * device, the member's other devices (other tokens) see the announcements read; other members
 * do not. That the mark only moves forward, that two devices marking at once append one event, and
 * the call's refusals are the route tests' (command-service/src/http/community-moderation.route.test.ts).
 */
let forum: TestForum;
let admin: string;

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.tokenFor('admin@forum.local');
});
afterAll(() => forum?.stop());

const { streamTypes, announce } = calls(() => forum);
const { registeredUser } = given(() => forum);

/** Another sign-in of the same member (another device): a token of its own. */
async function anotherDevice(member: NewUser): Promise<string> {
  const token = await forum.signIn(member.email, member.password);
  expect(token).not.toBe(member.token);
  return token;
}

const published = async (title: string) => expectStatus<{ id: string; position: string }>(announce(admin, { title, description: `About ${title}` }), 201);
const markRead = (token: string, body: unknown) => forum.api('/api/me/announcements/read', { method: 'POST', token, json: body });
const notificationsOf = (token: string, position?: string) =>
  expectStatus<Notifications>(forum.api('/api/me/notifications', { token, headers: minPositionHeaders(position) }));
/** What the bell counts for a member: the announcements dated after their mark. */
async function unreadAnnouncements(token: string, position?: string): Promise<number> {
  const { announcementsReadUpTo: mark } = await notificationsOf(token, position);
  const list = await expectStatus<Announcement[]>(forum.api('/api/announcements', { headers: minPositionHeaders(position) }));
  return list.filter((a) => mark === null || Date.parse(a.date) > Date.parse(mark)).length;
}

describe('POST /api/me/announcements/read', () => {
  it('marked on one device, the same member’s other device sees no unread announcement; another member still sees them unread', async () => {
    const member = await registeredUser('Dana');
    const other = await registeredUser('Eli');
    const phone = await anotherDevice(member);
    await published('First news');
    const newest = await published('Second news');
    expect(await notificationsOf(phone, newest.position)).toMatchObject({ announcementsReadUpTo: null });
    expect(await unreadAnnouncements(phone, newest.position)).toBeGreaterThanOrEqual(2);

    const marked = await expectStatus<{ id: string; position: string }>(markRead(member.token, { announcementId: newest.id }));
    expect(marked).toEqual({ id: member.id, position: anyString });
    const { events } = await forum.store.readStream(`notifications-${member.id}`);
    expect(events.map((e) => ({ type: e.type, data: e.data, actorId: e.metadata.actorId }))).toEqual([
      { type: 'AnnouncementsRead', data: { userId: member.id, announcementId: newest.id, upTo: anyString, readAt: anyString }, actorId: member.id },
    ]);

    const list = await expectStatus<Announcement[]>(forum.api('/api/announcements', { headers: minPositionHeaders(marked.position) }));
    expect((await notificationsOf(phone, marked.position)).announcementsReadUpTo).toBe(list.find((a) => a._id === newest.id)!.date);
    expect(await unreadAnnouncements(phone, marked.position)).toBe(0);
    expect(await unreadAnnouncements(other.token, marked.position)).toBeGreaterThanOrEqual(2);
    expect((await notificationsOf(other.token)).announcementsReadUpTo).toBeNull();

    // a newer announcement is unread on both devices until one of them marks it
    const third = await published('Third news');
    expect(await unreadAnnouncements(member.token, third.position)).toBe(1);
    expect(await unreadAnnouncements(phone, third.position)).toBe(1);
  });

  it('#39 edge 18: an admin’s own announcement is read by them, on every device, and by no one else; nothing more is appended for it', async () => {
    const before = await published('Read by the admin first');
    await expectStatus(markRead(admin, { announcementId: before.id }));
    const member = await registeredUser('Jo');
    const own = await published('Written by the admin');
    const adminsOther = await forum.demoAdmin();
    expect(await unreadAnnouncements(adminsOther.token, own.position)).toBe(0);
    const list = await expectStatus<Announcement[]>(forum.api('/api/announcements', { headers: minPositionHeaders(own.position) }));
    expect((await notificationsOf(admin, own.position)).announcementsReadUpTo).toBe(list.find((a) => a._id === own.id)!.date);
    expect(await unreadAnnouncements(member.token, own.position)).toBeGreaterThanOrEqual(2);
    expect(await streamTypes(`notifications-${adminsOther.id}`)).toEqual(['AnnouncementsRead']);
  });

  it('the mark leaves the read models with the member’s erasure', async () => {
    const member = await registeredUser('Ivy');
    const news = await published('Before erasure');
    await expectStatus(markRead(member.token, { announcementId: news.id }));
    const erased = await expectStatus<{ position: string }>(forum.api('/api/me', { method: 'DELETE', token: member.token, json: { content: 'keep' } }));
    await expectStatus(forum.api('/api/tags', { headers: minPositionHeaders(erased.position) }));
    const { rows } = await forum.db.raw<{ rows: unknown[] }>('SELECT 1 FROM read.announcements_read WHERE user_id = ?', [member.id]);
    expect(rows).toEqual([]);
  });
});
