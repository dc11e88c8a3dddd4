// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { getContrastRatio } from '@mui/material/styles';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { updateMeApi } from '../features/account/api/update-me';
import { formatDateTime } from '../lib/format';
import { installFakeEventSource, streamFollowing } from '../testing/fake-event-source';
import { ALICE, renderWithApp } from '../testing/render-with-app';
import { Announcements } from '../features/notifications';
import { Shell } from './shell';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = (photoURL: string) => ({
  _id: ALICE.id,
  name: ALICE.name,
  email: ALICE.email,
  photoURL,
  handle: 'alice',
  role: 'user',
  isMember: false,
  registeredAt: '2026-11-01T10:00:00.000Z',
});

describe('the shell', () => {
  it('#43.5: a suspended member sees on every page why and until when, in their locale, and that they may still read', async () => {
    const until = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();
    let suspension: { reason: string; until: string | null } | null = { reason: 'Spam in three threads', until };
    stubApi({
      'GET /api/me': () => ({ body: { ...me(''), suspension } }),
      'GET /api/announcements': () => ({ body: [] }),
      'GET /api/me/notifications': () => ({ body: { notifications: [], unread: 0, totalCount: 0 } }),
    });
    const { unmount } = renderWithApp(<Shell />);
    const text = await screen.findByText(`Your account is suspended until ${formatDateTime(until)}: Spam in three threads. You can still read the forum.`);
    expect(text.closest('[role="status"]')?.textContent).toBe(text.textContent);
    unmount();

    suspension = { reason: 'Abuse', until: null };
    renderWithApp(<Shell />);
    await screen.findByText('Your account is suspended until a moderator lifts it: Abuse. You can still read the forum.');
    cleanup();

    suspension = null;
    renderWithApp(<Shell />);
    await waitFor(() => expect(screen.getByRole('button', { name: ALICE.name })).toBeTruthy());
    expect(screen.queryByText(/suspended/)).toBeNull();
  });

  it('#43.5: the banner comes when staff suspend the member and goes when they lift it, without a reload; an ended suspension shows none', async () => {
    installFakeEventSource();
    let suspension: { reason: string; until: string | null } | null = null;
    const reads: string[] = [];
    stubApi({
      'GET /api/me': (request) => {
        reads.push(request.headers.get('X-Min-Position') ?? '-');
        return { body: { ...me(''), suspension } };
      },
      'GET /api/announcements': () => ({ body: [] }),
      'GET /api/me/notifications': () => ({ body: { notifications: [], unread: 0, totalCount: 0 } }),
      'GET /api/stream/ticket': () => ({ body: { ticket: 'ticket-1', expiresInSeconds: 60 } }),
    });
    renderWithApp(<Shell />);
    await waitFor(() => expect(screen.getByRole('button', { name: ALICE.name })).toBeTruthy());
    const stream = await streamFollowing('me');
    suspension = { reason: 'Cooling off', until: null };
    stream.send('account', { position: '310.1' }, '310.1');
    await screen.findByText('Your account is suspended until a moderator lifts it: Cooling off. You can still read the forum.');
    expect(reads).toContain('310.1');
    suspension = null;
    stream.send('account', { position: '311.1' }, '311.1');
    await waitFor(() => expect(screen.queryByText(/suspended/)).toBeNull());
    cleanup();

    suspension = { reason: 'Over', until: new Date(Date.now() - 60_000).toISOString() };
    renderWithApp(<Shell />);
    await waitFor(() => expect(screen.getByRole('button', { name: ALICE.name })).toBeTruthy());
    expect(screen.queryByText(/suspended/)).toBeNull();
  });

  it("shows the signed-in user's photo as the forum has it, and a changed photo at once", async () => {
    let photo = 'https://img.example/old.png';
    stubApi({
      'GET /api/me': () => ({ body: me(photo) }),
      'PATCH /api/me': () => {
        photo = 'https://img.example/new.png';
        return { body: { id: ALICE.id, position: '30.1' } };
      },
      'GET /api/announcements': () => ({ body: [] }),
      'GET /api/me/notifications': () => ({ body: { notifications: [], unread: 0, totalCount: 0 } }),
    });
    const { store } = renderWithApp(<Shell />);
    const avatar = () => screen.getByRole('button', { name: ALICE.name }).querySelector('img')?.getAttribute('src');
    await waitFor(() => expect(avatar()).toBe('https://img.example/old.png'));

    await store.dispatch(updateMeApi.endpoints.updateMe.initiate({ photoURL: 'https://img.example/new.png' }));
    await waitFor(() => expect(avatar()).toBe('https://img.example/new.png'));
  });

  it('#39 edge 17: without a photo the bar shows the first letter of the name, as the cards do, white on a colour at 4.5:1 or more', async () => {
    stubApi({
      'GET /api/me': () => ({ body: me('') }),
      'GET /api/announcements': () => ({
        body: [{ _id: 'a1', title: 'News', description: 'Read me', authorName: 'ada Admin', authorPhoto: '', date: '2026-11-29T09:00:00.000Z' }],
      }),
      'GET /api/me/notifications': () => ({ body: { notifications: [], unread: 0, totalCount: 0 } }),
    });
    renderWithApp(
      <>
        <Shell />
        <Announcements />
      </>,
    );
    const bar = screen.getByRole('button', { name: ALICE.name });
    await waitFor(() => expect(bar.textContent).toBe('A'));
    expect(bar.querySelector('img')).toBeNull();
    const author = await screen.findByText('A', { selector: 'article *' });
    expect(author.textContent).toBe('A');
    for (const avatar of [bar.firstElementChild!, author.closest('.MuiAvatar-root')!]) {
      const style = getComputedStyle(avatar);
      expect(getContrastRatio(style.color, style.backgroundColor), `${style.color} on ${style.backgroundColor}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});
