// @vitest-environment jsdom
import { PAGE_SIZE, type PublicProfile } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { postItem } from '../../testing/post-items';
import { renderWithApp } from '../../testing/render-with-app';
import { ProfilePage } from './profile';

beforeAll(() => {
  // jsdom lays nothing out: the pager's scroll to the list's heading is a no-op
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(cleanup);

const POSTS = Array.from({ length: PAGE_SIZE + 2 }, (_, i) => postItem(`00000000-0000-4000-8000-00000000000${i}`, `Post number ${i + 1}`, ['devops']));
const profile = (page: number): PublicProfile => ({
  user: {
    _id: 'u-bob',
    name: 'Bob Chen',
    handle: 'bob.chen',
    photoURL: '',
    registeredAt: '2026-03-02T10:00:00.000Z',
    role: 'admin',
    isMember: true,
    badge: 'Gold',
  },
  stats: { posts: POSTS.length, comments: 12, commentsReceived: 30, upVotes: 41 },
  posts: POSTS.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
  totalCount: POSTS.length,
});

const renderProfile = (path: string) => renderWithApp(<ProfilePage />, { path, route: '/u/:id', user: null });

describe('a public profile', () => {
  it("shows the member's name, handle, when they joined, their Gold and staff badges, counts and posts a page at a time", async () => {
    const asked: string[] = [];
    stubApi({
      'GET /api/users/:id': ({ url }, { id }) => {
        asked.push(`${id}${new URL(url).search}`);
        return { body: profile(Number(new URL(url).searchParams.get('page') ?? 1)) };
      },
    });
    renderProfile('/u/@bob.chen');
    await screen.findByRole('heading', { level: 1, name: 'Bob Chen' });
    screen.getByText('@bob.chen');
    expect(screen.getByText(/^Joined/).textContent).toBe('Joined Mar 2, 2026');
    screen.getByText('Gold');
    screen.getByText('Staff');
    const stats = screen.getByRole('region', { name: 'Statistics' });
    expect(
      within(stats)
        .getAllByRole('definition')
        .map((dd) => dd.textContent),
    ).toEqual([String(POSTS.length), '12', '30', '41']);
    expect(screen.getAllByRole('link', { name: /^Post number/ })).toHaveLength(PAGE_SIZE);

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('link', { name: `Post number ${PAGE_SIZE + 1}` });
    expect(asked).toEqual(['@bob.chen', '@bob.chen?page=2']);
  });

  it('a member who is not Gold shows the Bronze Member badge, as My Profile does, and no staff badge', async () => {
    const bronze = profile(1);
    stubApi({ 'GET /api/users/:id': () => ({ body: { ...bronze, user: { ...bronze.user, role: 'user', isMember: false, badge: 'Bronze' } } }) });
    renderProfile('/u/@bob.chen');
    await screen.findByText('Bronze Member');
    expect(screen.queryByText('Gold')).toBeNull();
    expect(screen.queryByText('Staff')).toBeNull();
  });

  it('a moderator shows the Moderator badge', async () => {
    const moderator = profile(1);
    stubApi({ 'GET /api/users/:id': () => ({ body: { ...moderator, user: { ...moderator.user, role: 'moderator' } } }) });
    renderProfile('/u/@bob.chen');
    await screen.findByText('Moderator');
    expect(screen.queryByText('Staff')).toBeNull();
  });

  it('an erased or unknown member has no page: it says so', async () => {
    stubApi({ 'GET /api/users/:id': () => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'No such user' } } }) });
    renderProfile('/u/u-gone');
    await screen.findByRole('heading', { name: 'Member not found' });
    await waitFor(() => expect(screen.queryByText('Bob Chen')).toBeNull());
  });
});
