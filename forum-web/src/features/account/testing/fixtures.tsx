import type { AuthUser } from '@forum/web-auth';
import type { ReactElement } from 'react';
import { renderAt as renderScreen } from '../../../testing/render-with-app';

/** The account screens' test user. */
export const BOB: AuthUser = { id: 'user-bob', email: 'bob@forum.local', name: 'Bob Chen', picture: '', roles: ['user'], emailVerified: true };

/** GET /api/me for BOB, a member or not. */
export const me = (isMember: boolean) => ({
  _id: BOB.id,
  name: BOB.name,
  email: BOB.email,
  photoURL: '',
  role: 'user',
  isMember,
  registeredAt: '2026-11-01T10:00:00.000Z',
});

/** The app's `renderAt`, signed in as BOB unless the test names another user. */
export const renderAt = (element: ReactElement, options: Parameters<typeof renderScreen>[1] = {}) => renderScreen(element, { user: BOB, ...options });
