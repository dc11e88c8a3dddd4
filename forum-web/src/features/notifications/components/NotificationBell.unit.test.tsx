// @vitest-environment jsdom
import { BELL_LATEST, NOTIFICATIONS_PATH, type Announcement, type NotificationItem, type Notifications } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { ALICE, renderWithApp } from '../../../testing/render-with-app';
import { getAnnouncementsApi } from '../api/get-announcements';
import { NotificationBell } from './NotificationBell';
import { activity, NOTIFIED_POST, notificationId } from '../testing/notification-items';
import { seenKey } from './unread';

const OLDER = '11111111-1111-4111-8111-111111111111';
const NEWER = '22222222-2222-4222-8222-222222222222';
const announcement = (_id: string, title: string, date: string): Announcement => ({
  _id,
  title,
  description: `About ${title}`,
  authorName: 'Admin',
  authorPhoto: '',
  date,
});
const announcements = [announcement(NEWER, 'Maintenance tonight', '2026-11-22T10:00:00.000Z'), announcement(OLDER, 'Welcome', '2026-11-21T10:00:00.000Z')];
const notifications = (announcementsReadUpTo: string | null): Notifications => ({
  notifications: [],
  unread: 0,
  totalCount: 0,
  page: 1,
  announcementsReadUpTo,
});

beforeEach(() => localStorage.clear());
afterEach(cleanup);

/** The forum's API for a member whose mark the server keeps: `mark` at first, moved by their POSTs. */
function memberApi(mark: string | null, { failing = false } = {}) {
  const sent: unknown[] = [];
  let serverMark = mark;
  const api = stubApi({
    'GET /api/announcements': () => ({ body: announcements }),
    'GET /api/me/notifications': () => ({ body: notifications(serverMark) }),
    'POST /api/me/announcements/read': async (request) => {
      sent.push(await request.json());
      if (failing) return { status: 500, body: { error: { code: 'INTERNAL', message: 'Something went wrong' } } };
      serverMark = announcements.find((a) => a._id === (sent.at(-1) as { announcementId: string }).announcementId)!.date;
      return { body: { id: ALICE.id, position: '40.7' }, headers: { 'X-Event-Position': '40.7' } };
    },
  });
  return { ...api, sent };
}

const bell = (count?: number) => screen.findByRole('button', { name: count ? `Notifications, ${count} new` : 'Notifications' });

describe('the bell of a signed-in member', () => {
  it('counts the announcements after the server’s mark, not this browser’s; opening it sends the newest to the server and the badge goes', async () => {
    localStorage.setItem(seenKey(ALICE.id), '2026-11-22T10:00:00.000Z'); // an old per-browser mark, newer than the server's: not used
    const api = memberApi('2026-11-21T10:00:00.000Z');
    renderWithApp(<NotificationBell />);
    await userEvent.click(await bell(1));

    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    within(panel).getByText('Maintenance tonight (new)');
    within(panel).getByText('Welcome');
    await waitFor(() => expect(api.sent).toEqual([{ announcementId: NEWER }]));
    await userEvent.keyboard('{Escape}');
    await bell();
    // the server has the mark; nothing more is sent on the next opening
    await userEvent.click(await bell());
    expect(api.calls.filter((c) => c === 'POST /api/me/announcements/read')).toHaveLength(1);
    expect(localStorage.getItem(seenKey(ALICE.id))).toBe('2026-11-22T10:00:00.000Z');
  });

  it('counts no announcement while the server’s mark has not come, then the ones after it', async () => {
    let answer!: () => void;
    const markArrives = new Promise<void>((resolve) => (answer = resolve));
    stubApi({
      'GET /api/announcements': () => ({ body: announcements }),
      'GET /api/me/notifications': async () => {
        await markArrives;
        return { body: notifications('2026-11-21T10:00:00.000Z') };
      },
    });
    const { store } = renderWithApp(<NotificationBell />);
    await waitFor(() => expect(getAnnouncementsApi.endpoints.getAnnouncements.select()(store.getState()).isSuccess).toBe(true));
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();
    answer();
    await bell(1);
  });

  it('counts no announcement while the sign-in check has not answered (a member reloading a page): not even against this browser’s visitor mark', async () => {
    stubApi({ 'GET /api/announcements': () => ({ body: announcements }) });
    const { store } = renderWithApp(<NotificationBell />, { user: 'not-known-yet' });
    await waitFor(() => expect(getAnnouncementsApi.endpoints.getAnnouncements.select()(store.getState()).isSuccess).toBe(true));
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Notifications, \d+ new$/ })).toBeNull();
  });

  it('before the server has a mark, counts against the one this browser kept for the member, and the first opening sends the newest', async () => {
    localStorage.setItem(seenKey(ALICE.id), '2026-11-21T10:00:00.000Z');
    const api = memberApi(null);
    renderWithApp(<NotificationBell />);
    await userEvent.click(await bell(1));
    await waitFor(() => expect(api.sent).toEqual([{ announcementId: NEWER }]));
  });

  it('a failed mark is silent: no message, and the badge is gone in this tab', async () => {
    const api = memberApi(null, { failing: true });
    renderWithApp(<NotificationBell />);
    await userEvent.click(await bell(2));
    await waitFor(() => expect(api.sent).toHaveLength(1));
    await userEvent.keyboard('{Escape}');
    await bell();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the bell of a visitor', () => {
  it('keeps the mark in this browser: counts what is newer, opening it stores the newest date and sends nothing', async () => {
    localStorage.setItem(seenKey(null), '2026-11-21T10:00:00.000Z');
    const api = stubApi({ 'GET /api/announcements': () => ({ body: announcements }) });
    const view = renderWithApp(<NotificationBell />, { user: null });
    await userEvent.click(await bell(1));
    within(await screen.findByRole('dialog', { name: 'Notifications' })).getByText('Maintenance tonight (new)');
    expect(localStorage.getItem(seenKey(null))).toBe('2026-11-22T10:00:00.000Z');
    await userEvent.keyboard('{Escape}');
    await bell();
    expect(api.calls.every((c) => c === 'GET /api/announcements')).toBe(true);

    // the next visit in this browser: nothing new
    view.unmount();
    renderWithApp(<NotificationBell />, { user: null });
    await bell();
    expect(screen.queryByRole('button', { name: /new/ })).toBeNull();
  });
});

describe("the bell's notifications of every kind", () => {
  const POST = NOTIFIED_POST;
  const id = notificationId;
  const items: NotificationItem[] = [
    { ...activity(9, { count: 5 }), kind: 'followed-post' },
    { ...activity(8), kind: 'mention' },
    { ...activity(7, { tag: 'devops', commentId: undefined, link: `/post/${POST}` }), kind: 'followed-tag' },
    { ...activity(6), kind: 'reply' },
    { _id: id(5), kind: 'warning', reason: 'Please stay polite', createdAt: '2026-11-25T10:00:00.000Z', read: false, link: NOTIFICATIONS_PATH },
    { ...activity(4, { read: true }), kind: 'reply', postTitle: 'Hidden: older than the bell shows' },
  ];

  function activityApi() {
    const reads: unknown[] = [];
    const asked: string[] = [];
    const api = stubApi({
      'GET /api/announcements': () => ({ body: announcements }),
      'GET /api/me/notifications': ({ url }) => {
        asked.push(new URL(url).search);
        return { body: { notifications: items, unread: 12, totalCount: 40, page: 1, announcementsReadUpTo: '2026-11-21T10:00:00.000Z' } };
      },
      'POST /api/me/notifications/read': async (request) => {
        reads.push(await request.json());
        return { body: {} };
      },
      'POST /api/me/announcements/read': () => ({ body: {} }),
    });
    return { ...api, reads, asked };
  }

  it('counts every unread notification of the member and the unread announcements; lists the latest few of every kind with what each says', async () => {
    const api = activityApi();
    renderWithApp(<NotificationBell />, { route: '*' });
    await userEvent.click(await bell(13));
    const list = within(await screen.findByRole('list', { name: 'Notifications' }));
    expect(api.asked[0]).toBe('?page=1');
    const rows = list.getAllByRole('listitem').map((row) => row.textContent);
    expect(rows.slice(0, BELL_LATEST).map((text) => text?.split('(new)')[0]?.trim())).toEqual([
      '5 new comments on Zero-downtime deploys',
      'Bob mentioned you in Zero-downtime deploys',
      'New post in devops: Zero-downtime deploys',
      'Bob commented on Zero-downtime deploys',
      'Warning from a moderator',
    ]);
    expect(list.queryByText(/Hidden/)).toBeNull();
    // the warnings the bell showed are read once it opens; nothing else is
    await waitFor(() => expect(api.reads).toEqual([{ ids: [id(5)] }]));
  });

  it('opening a notification goes to its comment and marks it read; "See all" leads to the centre', async () => {
    const api = activityApi();
    renderWithApp(<NotificationBell />, { route: '*' });
    await userEvent.click(await bell(13));
    const mention = await screen.findByRole('link', { name: /Bob mentioned you in Zero-downtime deploys \(new\)/ });
    expect(mention.getAttribute('href')).toBe(`/post/${POST}#comment-c8`);
    await userEvent.click(mention);
    await waitFor(() => expect(api.reads).toContainEqual({ ids: [id(8)] }));
    expect(document.querySelector('output')?.textContent).toBe(`/post/${POST}`);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).toBeNull());

    // the announcements were read at the first opening
    await userEvent.click(await bell(12));
    await userEvent.click(await screen.findByRole('link', { name: 'See all' }));
    expect(document.querySelector('output')?.textContent).toBe(NOTIFICATIONS_PATH);
  });

  it('a visitor has no "See all": the announcements are all there is', async () => {
    stubApi({ 'GET /api/announcements': () => ({ body: announcements }) });
    renderWithApp(<NotificationBell />, { user: null });
    await userEvent.click(await bell(2));
    await screen.findByRole('dialog', { name: 'Notifications' });
    expect(screen.queryByRole('link', { name: 'See all' })).toBeNull();
  });
});
