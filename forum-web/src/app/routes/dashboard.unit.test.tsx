// @vitest-environment jsdom
import { DEFAULT_DELIVERIES } from '@forum/contracts';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { renderWithApp } from '../../testing/render-with-app';
import { DashboardPage } from './dashboard';

afterEach(cleanup);

const marked = (name: string) =>
  within(screen.getByRole('navigation', { name: 'Dashboard' }))
    .getByRole('link', { name })
    .classList.contains('active');

describe('the dashboard menu', () => {
  it('marks Notifications on the notification preferences page, which sits under it, and nothing else', async () => {
    stubApi({ 'GET /api/me/notification-preferences': () => ({ body: { preferences: DEFAULT_DELIVERIES } }) });
    renderWithApp(<DashboardPage />, { path: '/dashboard/notification-preferences', route: '/dashboard/*' });
    await screen.findByRole('combobox', { name: 'Replies' });
    expect(marked('Notifications')).toBe(true);
    expect(['Home', 'My Profile', 'Add Post', 'My Posts'].filter(marked)).toEqual([]);
  });
});
