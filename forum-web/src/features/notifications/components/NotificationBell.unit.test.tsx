// @vitest-environment jsdom
import type { Announcement, Notifications } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { ALICE, renderWithApp } from '../../../testing/render-with-app';
import { getAnnouncementsApi } from '../api/get-announcements';
import { NotificationBell } from './NotificationBell';
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
