// @vitest-environment jsdom
import type { Announcement, WarningItem } from '@forum/contracts';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { FakeEventSource, installFakeEventSource } from '../../../testing/fake-event-source';
import { ALICE, renderWithApp } from '../../../testing/render-with-app';
import { NotificationBell } from './NotificationBell';

const announcement = (n: number): Announcement => ({
  _id: `a${n}`,
  title: `News ${n}`,
  description: 'Read me',
  authorName: 'Admin',
  authorPhoto: '',
  date: `2026-11-2${n}T10:00:00.000Z`,
});
const warning = (n: number): WarningItem => ({
  _id: `w${n}`,
  kind: 'warning',
  reason: 'Please stay polite',
  createdAt: '2026-11-23T18:00:00.000Z',
  read: false,
  link: '/dashboard/notifications',
});

/** The bell's server: what it has now, and the X-Min-Position of each read ("what position"). */
function stubBell() {
  const server = { announcements: [announcement(1)], warnings: [] as WarningItem[], reads: [] as string[], tickets: 0 };
  const read = (what: string, request: Request) => server.reads.push(`${what} ${request.headers.get('X-Min-Position') ?? '-'}`);
  stubApi({
    'GET /api/announcements': (request) => {
      read('announcements', request);
      return { body: server.announcements };
    },
    'GET /api/me/notifications': (request) => {
      read('notifications', request);
      return { body: { notifications: server.warnings, unread: server.warnings.length, totalCount: server.warnings.length, page: 1 } };
    },
    'GET /api/stream/ticket': (request) => {
      server.tickets++;
      expect(request.headers.get('Authorization')).toBe('Bearer test-token');
      return { body: { ticket: `ticket-${server.tickets}`, expiresInSeconds: 60 } };
    },
  });
  return server;
}

const bell = (count: number) => screen.findByRole('button', { name: count > 0 ? `Notifications, ${count} new` : 'Notifications' });

beforeEach(() => {
  installFakeEventSource();
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the bell, live', () => {
  it("a visitor's count moves when an announcement is published: the announcements are read again at its position", async () => {
    const server = stubBell();
    renderWithApp(<NotificationBell />, { route: '*', user: null });
    await bell(1);
    await waitFor(() => expect(FakeEventSource.live().map((source) => source.topics)).toEqual([['announcements']]));
    const stream = FakeEventSource.latest();
    expect(stream.param('ticket')).toBeNull();

    server.announcements = [announcement(2), announcement(1)];
    stream.send('announcement-published', { position: '400.2', announcementId: 'a2' }, '400.2');
    await bell(2);
    expect(server.reads).toEqual(['announcements -', 'announcements 400.2']);
    expect(server.tickets).toBe(0);
  });

  it("a member's own stream (with a ticket) moves the count of their warnings", async () => {
    const server = stubBell();
    renderWithApp(<NotificationBell />, { route: '*', user: ALICE });
    await bell(1);
    await waitFor(() => expect(FakeEventSource.live().map((source) => source.topics)).toEqual([['announcements', 'me']]));
    const stream = FakeEventSource.latest();
    expect(stream.param('ticket')).toBe('ticket-1');

    server.warnings = [warning(1)];
    stream.send('notifications', { position: '410.1' }, '410.1');
    await bell(2);
    expect(server.reads).toContain('notifications 410.1');
  });
});
