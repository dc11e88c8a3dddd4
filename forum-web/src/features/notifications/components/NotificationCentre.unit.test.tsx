// @vitest-environment jsdom
import { NOTIFICATION_PAGE_SIZE, NOTIFICATIONS_PATH, type NotificationItem } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { currentPath, renderWithApp } from '../../../testing/render-with-app';
import { activity, NOTIFIED_POST, notificationId } from '../testing/notification-items';
import { NotificationCentre } from './NotificationCentre';

afterEach(cleanup);

/** A member's notifications on the server (newest first), paged as the API pages them; marks read as POSTs say. */
function centreApi(items: NotificationItem[]) {
  const marks: unknown[] = [];
  const api = stubApi({
    'GET /api/me/notifications': ({ url }) => {
      const query = new URL(url).searchParams;
      const page = Number(query.get('page') ?? 1);
      const listed = query.get('unread') === 'true' ? items.filter((item) => !item.read) : items;
      return {
        body: {
          notifications: listed.slice((page - 1) * NOTIFICATION_PAGE_SIZE, page * NOTIFICATION_PAGE_SIZE),
          unread: items.filter((item) => !item.read).length,
          totalCount: listed.length,
          page,
          announcementsReadUpTo: null,
        },
      };
    },
    'POST /api/me/notifications/read': async (request) => {
      const body = (await request.json()) as { ids?: string[] };
      marks.push(body);
      for (const item of items) if (!body.ids || body.ids.includes(item._id)) item.read = true;
      return { body: {} };
    },
  });
  return { ...api, marks };
}

const renderCentre = (path = NOTIFICATIONS_PATH) => renderWithApp(<NotificationCentre />, { path, route: NOTIFICATIONS_PATH });
const rows = () => within(screen.getByRole('list', { name: 'Notifications' })).getAllByRole('listitem');

describe('the notification centre', () => {
  it('pages every notification, newest first, NOTIFICATION_PAGE_SIZE a page', async () => {
    const items = Array.from({ length: NOTIFICATION_PAGE_SIZE + 3 }, (_, i) => activity(100 - i, { read: i % 2 === 1 }));
    centreApi(items);
    renderCentre();
    await screen.findByRole('link', { name: /Comment 100/ });
    expect(rows()).toHaveLength(NOTIFICATION_PAGE_SIZE);
    await userEvent.click(screen.getByRole('button', { name: 'Go to page 2' }));
    await screen.findByRole('link', { name: /Comment 80/ });
    expect(rows()).toHaveLength(3);
  });

  it('"Unread only" lists the unread ones; one is marked read by its button, all by "Mark all as read"; then it says all is caught up', async () => {
    const items = [activity(3), activity(2, { read: true }), activity(1, { kind: 'mention' })];
    const api = centreApi(items);
    renderCentre();
    await screen.findByText('2 unread');
    await userEvent.click(screen.getByRole('switch', { name: 'Unread only' }));
    await waitFor(() => expect(rows()).toHaveLength(2));

    await userEvent.click(screen.getByRole('button', { name: 'Mark as read: Bob commented on Zero-downtime deploys' }));
    await screen.findByText('1 unread');
    expect(api.marks).toEqual([{ ids: [notificationId(3)] }]);
    expect(rows()).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await screen.findByText('No unread notifications: you are all caught up.');
    expect(api.marks.at(-1)).toEqual({});
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Mark all as read' }).disabled).toBe(true);
  });

  it('opening one goes to its comment and marks it read', async () => {
    const api = centreApi([activity(7)]);
    renderCentre();
    await userEvent.click(await screen.findByRole('link', { name: /Bob commented on Zero-downtime deploys \(new\)/ }));
    expect(currentPath()).toBe(`/post/${NOTIFIED_POST}`);
    await waitFor(() => expect(api.marks).toEqual([{ ids: [notificationId(7)] }]));
  });

  it('a member with none reads that they will show here', async () => {
    centreApi([]);
    renderCentre();
    await screen.findByText('No notifications yet. Replies, mentions and news from what you follow will show here.');
    expect(screen.queryByRole('navigation', { name: /pagination/i })).toBeNull();
  });

  it('a moderation notification says what staff did and why, and leads to the post', async () => {
    const api = centreApi([
      {
        _id: notificationId(9),
        kind: 'moderation',
        action: 'post-hidden',
        reason: 'Off topic for this forum',
        postId: NOTIFIED_POST,
        postTitle: 'Zero-downtime deploys',
        createdAt: '2026-11-29T10:00:00.000Z',
        read: false,
        link: `/post/${NOTIFIED_POST}`,
      },
    ]);
    renderCentre();
    const link = await screen.findByRole('link', { name: /A moderator hid your post "Zero-downtime deploys" \(new\)/ });
    expect(link.textContent).toContain('Reason: Off topic for this forum');
    expect(screen.getByRole('button', { name: 'Mark as read: A moderator hid your post "Zero-downtime deploys"' })).toBeTruthy();
    await userEvent.click(link);
    expect(currentPath()).toBe(`/post/${NOTIFIED_POST}`);
    await waitFor(() => expect(api.marks).toEqual([{ ids: [notificationId(9)] }]));
  });
});
