// @vitest-environment jsdom
import { DEFAULT_DELIVERIES } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { renderWithApp } from '../../../testing/render-with-app';
import { NotificationPreferencesPage } from './NotificationPreferencesPage';

afterEach(cleanup);

describe('the notification preferences', () => {
  it('shows each kind with its delivery; a choice is saved at once and shown as the server has it', async () => {
    const preferences: Record<string, string> = { ...DEFAULT_DELIVERIES };
    const sent: unknown[] = [];
    stubApi({
      'GET /api/me/notification-preferences': () => ({ body: { preferences } }),
      'PUT /api/me/notification-preferences': async (request) => {
        const body = (await request.json()) as Record<string, string>;
        sent.push(body);
        Object.assign(preferences, body);
        return { body: { id: 'u-1', position: '9.1' } };
      },
    });
    renderWithApp(<NotificationPreferencesPage />);
    const replies = await screen.findByRole('combobox', { name: 'Replies' });
    expect(replies.textContent).toBe('Email at once');
    expect(screen.getByRole('combobox', { name: 'Tags you follow' }).textContent).toBe('Daily digest');

    await userEvent.click(screen.getByRole('combobox', { name: 'Mentions' }));
    await userEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Off' }));
    await screen.findByText('Mentions: Off. Saved.');
    expect(sent).toEqual([{ mention: 'off' }]);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Mentions' }).textContent).toBe('Off'));
  });

  it('offers only what the server takes: a warning and moderation are never off, announcements are in the app only', async () => {
    stubApi({ 'GET /api/me/notification-preferences': () => ({ body: { preferences: DEFAULT_DELIVERIES } }) });
    renderWithApp(<NotificationPreferencesPage />);
    for (const name of ['Warnings', 'Moderation']) {
      await userEvent.click(await screen.findByRole('combobox', { name }));
      const options = within(await screen.findByRole('listbox')).getAllByRole('option');
      expect(options.map((option) => option.textContent)).toEqual(['In the app', 'Email at once', 'Daily digest']);
      await userEvent.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    }
    expect(screen.getByRole('combobox', { name: 'Moderation' }).textContent).toBe('Email at once');
    expect(screen.getByRole('combobox', { name: 'Announcements' }).getAttribute('aria-disabled')).toBe('true');
  });
});
