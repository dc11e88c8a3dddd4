// @vitest-environment jsdom
import { DELETED_USER_NAME } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { currentPath, renderWithApp } from '../../../testing/render-with-app';
import { Leaderboard } from './Leaderboard';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the leaderboard', () => {
  it("lists the users in the server's order with '{n} votes', 'Anonymous' for a user without a name", async () => {
    stubApi({
      'GET /api/users/top-voted': () => ({
        body: [
          { _id: 'u1', name: 'Bob Chen', photoURL: '', totalVote: 12, hasProfile: true },
          { _id: 'u2', name: '', photoURL: '', totalVote: 7, hasProfile: true },
          { _id: 'u3', name: DELETED_USER_NAME, photoURL: '', totalVote: 5, hasProfile: false },
        ],
      }),
    });
    renderWithApp(<Leaderboard />);
    const list = await screen.findByRole('list', { name: 'Top-voted users' });
    expect(list.tagName).toBe('OL');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    const [first, second, third] = items as [HTMLElement, HTMLElement, HTMLElement];
    within(first).getByText('Bob Chen');
    within(first).getByText('12 votes');
    within(second).getByText('Anonymous');
    within(second).getByText('7 votes');
    // an erased member's name is plain text: they have no profile
    within(third).getByText(DELETED_USER_NAME);
    expect(within(third).queryByRole('link')).toBeNull();
  });

  it("links each name to the member's public profile", async () => {
    stubApi({ 'GET /api/users/top-voted': () => ({ body: [{ _id: 'u1', name: 'Bob Chen', photoURL: '', totalVote: 12, hasProfile: true }] }) });
    renderWithApp(<Leaderboard />);
    await userEvent.click(await screen.findByRole('link', { name: 'Bob Chen' }));
    await waitFor(() => expect(currentPath()).toBe('/u/u1'));
  });

  it("says 'No users found.' when nobody has votes yet", async () => {
    stubApi({ 'GET /api/users/top-voted': () => ({ body: [] }) });
    renderWithApp(<Leaderboard />);
    await screen.findByText('No users found.');
  });
});
