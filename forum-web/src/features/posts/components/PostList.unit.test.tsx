// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { currentPath, renderWithApp } from '../../../testing/render-with-app';
import { PostList } from './PostList';

// a page change scrolls the list into view; jsdom lays nothing out
beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const post = (n: number) => ({
  _id: `6f1c8a52-1111-4a4a-9a9a-${String(n).padStart(12, '0')}`,
  title: `Post number ${n}`,
  summary: `What post ${n} is about`,
  tags: n % 2 ? ['DevOps'] : [],
  authorName: 'Bob Chen',
  authorId: 'u-bob',
  authorPhoto: '',
  createdAt: '2026-11-20T09:30:00.000Z',
  upVote: n,
  downVote: 0,
  commentCount: 0,
  revisionCount: 1,
});

/** GET /api/posts answered from `total` posts, 5 a page; every request's page and sort kept in `asked`. */
function stubPosts(total: number) {
  const asked: string[] = [];
  stubApi({
    'GET /api/posts': (request) => {
      const url = new URL(request.url);
      const page = Number(url.searchParams.get('page'));
      asked.push(`${url.searchParams.get('sort')} ${page}`);
      const from = (page - 1) * 5;
      const posts = Array.from({ length: Math.max(0, Math.min(5, total - from)) }, (_, i) => post(from + i + 1));
      return { body: { posts, totalCount: total } };
    },
  });
  return asked;
}

const renderList = (path = '/') => renderWithApp(<PostList />, { path, route: '/', user: null });
const titles = () => screen.getAllByRole('article').map((card) => within(card).getByRole('heading').textContent);
const pager = () => screen.getByRole('navigation', { name: 'Pages' });

describe('the home post list: paging and sort', () => {
  it("shows 5 posts a page with 'Page n / total'; Prev is off on the first page, Next on the last", async () => {
    stubPosts(12);
    const { router } = renderList();
    await waitFor(() => expect(titles()).toEqual(['Post number 1', 'Post number 2', 'Post number 3', 'Post number 4', 'Post number 5']));
    expect(within(pager()).getByText('Page 1 / 3')).toBeTruthy();
    expect(within(pager()).getByRole('button', { name: 'Prev' }).hasAttribute('disabled')).toBe(true);

    await userEvent.click(within(pager()).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(pager()).getByText('Page 2 / 3')).toBeTruthy());
    await waitFor(() => expect(titles()[0]).toBe('Post number 6'));
    expect(router.state.location.search).toBe('?page=2');

    await userEvent.click(within(pager()).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(titles()).toEqual(['Post number 11', 'Post number 12']));
    expect(within(pager()).getByText('Page 3 / 3')).toBeTruthy();
    expect(within(pager()).getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);

    await userEvent.click(within(pager()).getByRole('button', { name: 'Prev' }));
    await waitFor(() => expect(within(pager()).getByText('Page 2 / 3')).toBeTruthy());
  });

  it('goes back to page 1 when the sort changes, and keeps the sort in the address', async () => {
    const asked = stubPosts(12);
    const { router } = renderList('/?page=3');
    await waitFor(() => expect(within(pager()).getByText('Page 3 / 3')).toBeTruthy());

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Popularity');
    await waitFor(() => expect(within(pager()).getByText('Page 1 / 3')).toBeTruthy());
    expect(router.state.location.search).toBe('?sort=popularity');
    expect(asked).toContain('popularity 1');
    expect(asked).not.toContain('popularity 3');
  });

  it('clamps a page past the end to the last page', async () => {
    stubPosts(7);
    const { router } = renderList('/?page=9');
    await waitFor(() => expect(within(pager()).getByText('Page 2 / 2')).toBeTruthy());
    expect(router.state.location.search).toBe('?page=2');
    await waitFor(() => expect(titles()).toEqual(['Post number 6', 'Post number 7']));
  });

  it("says 'No posts found.' with 'Page 1 / 1' when there are none", async () => {
    stubPosts(0);
    renderList();
    expect(await screen.findByText('No posts found.')).toBeTruthy();
    expect(within(pager()).getByText('Page 1 / 1')).toBeTruthy();
    expect(within(pager()).getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
  });

  it("shows each card's first tag, or 'General'", async () => {
    stubPosts(2);
    renderList();
    await waitFor(() => expect(titles()).toHaveLength(2));
    const [first, second] = screen.getAllByRole('article');
    expect(first!.textContent).toContain('DevOps');
    expect(second!.textContent).toContain('General');
  });

  it("links each card's author to their public profile, apart from the title's link to the post", async () => {
    stubPosts(2);
    renderList();
    await waitFor(() => expect(titles()).toHaveLength(2));
    const [first] = screen.getAllByRole('article');
    expect(within(first!).getByRole('link', { name: 'Post number 1' }).getAttribute('href')).toBe('/post/6f1c8a52-1111-4a4a-9a9a-000000000001');
    await userEvent.click(within(first!).getByRole('link', { name: 'Bob Chen' }));
    await waitFor(() => expect(currentPath()).toBe('/u/u-bob'));
  });
});

describe('#43.4 pinned posts', () => {
  it('come first on the first page, in both sorts, each marked Pinned; a locked one is marked Locked; later pages have none', async () => {
    const pinned = [
      { ...post(90), pinned: true as const },
      { ...post(91), pinned: true as const, locked: true as const },
    ];
    stubApi({
      'GET /api/posts': (request) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        const posts = Array.from({ length: 5 }, (_, i) => post((page - 1) * 5 + i + 1));
        return { body: { posts, totalCount: 10, ...(page === 1 && { pinned }) } };
      },
    });
    renderList();
    await screen.findByRole('heading', { name: 'Post number 90' });
    expect(titles().slice(0, 3)).toEqual(['Post number 90', 'Post number 91', 'Post number 1']);
    const cards = screen.getAllByRole('article');
    expect(within(cards[0]!).getByText('Pinned')).toBeTruthy();
    expect(within(cards[1]!).getByText('Locked')).toBeTruthy();
    expect(within(cards[2]!).queryByText('Pinned')).toBeNull();
    cleanup();

    renderList('/?sort=popularity');
    await screen.findByRole('heading', { name: 'Post number 90' });
    expect(titles()[0]).toBe('Post number 90');
    cleanup();

    renderList('/?page=2');
    await screen.findByRole('heading', { name: 'Post number 6' });
    expect(screen.queryByText('Pinned')).toBeNull();
  });
});
