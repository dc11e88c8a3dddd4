// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { updateMeApi } from '../features/account/api/update-me';
import { ALICE, renderWithApp } from '../testing/render-with-app';
import { Shell } from './shell';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = (photoURL: string) => ({ _id: ALICE.id, name: ALICE.name, email: ALICE.email, photoURL, role: 'user', isMember: false, registeredAt: '2026-11-01T10:00:00.000Z' });

describe('the shell', () => {
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
});
