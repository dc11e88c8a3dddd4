// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { renderWithApp } from '../../../testing/render-with-app';
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
          { _id: 'u1', name: 'Bob Chen', photoURL: '', totalVote: 12 },
          { _id: 'u2', name: '', photoURL: '', totalVote: 7 },
        ],
      }),
    });
    renderWithApp(<Leaderboard />);
    const list = await screen.findByRole('list', { name: 'Top-voted users' });
    expect(list.tagName).toBe('OL');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [first, second] = items as [HTMLElement, HTMLElement];
    within(first).getByText('Bob Chen');
    within(first).getByText('12 votes');
    within(second).getByText('Anonymous');
    within(second).getByText('7 votes');
  });

  it("says 'No users found.' when nobody has votes yet", async () => {
    stubApi({ 'GET /api/users/top-voted': () => ({ body: [] }) });
    renderWithApp(<Leaderboard />);
    await screen.findByText('No users found.');
  });
});
