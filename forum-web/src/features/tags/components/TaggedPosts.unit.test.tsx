// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { postItem as item } from '../../../testing/post-items';
import { renderWithApp } from '../../../testing/render-with-app';
import { TaggedPosts } from './TaggedPosts';

// a page change scrolls the heading into view; jsdom lays nothing out
beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A tag's 12 posts, answered 5 a page as the API pages them; each page asked is kept in `asked`. */
function twelvePosts(asked: URL[]) {
  const all = Array.from({ length: 12 }, (_, i) => item(`p${i + 1}`, `DevOps post ${i + 1}`, ['DevOps']));
  return (request: Request) => {
    const url = new URL(request.url);
    asked.push(url);
    const page = Number(url.searchParams.get('page'));
    return { body: { posts: all.slice((page - 1) * 5, page * 5), totalCount: all.length } };
  };
}

describe('the tag page', () => {
  it('asks for a page of the posts with the tag and shows each as a card with its title, summary and tags', async () => {
    const asked: URL[] = [];
    const { calls } = stubApi({
      'GET /api/posts/search': (request) => {
        asked.push(new URL(request.url));
        return { body: { posts: [item('p1', 'Zero-downtime deploys', ['DevOps', 'Databases']), item('p2', 'Node.js 20 vs 22', ['DevOps'])], totalCount: 2 } };
      },
    });
    renderWithApp(<TaggedPosts tag="DevOps" />);

    await screen.findByRole('heading', { level: 1, name: 'Posts Tagged with: #DevOps' });
    const card = (await screen.findByRole('link', { name: 'Zero-downtime deploys' })).closest('article')!;
    expect(within(card).getByRole('link', { name: 'Zero-downtime deploys' }).getAttribute('href')).toBe('/post/p1');
    within(card).getByText('Zero-downtime deploys in short...');
    expect(
      within(within(card).getByRole('list', { name: 'Tags' }))
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['#DevOps', '#Databases']);
    expect(screen.getAllByRole('article')).toHaveLength(2);
    screen.getByText('2 posts');
    screen.getByText('Page 1 / 1');

    expect(calls[0]).toBe('GET /api/posts/search');
    expect(asked[0]!.searchParams.get('tag')).toBe('DevOps');
    expect(asked[0]!.searchParams.get('page')).toBe('1');
  });

  it('pages like the home list: Next and Prev, the page in the address, a page past the last clamped to it', async () => {
    const asked: URL[] = [];
    stubApi({ 'GET /api/posts/search': twelvePosts(asked) });
    const { router } = renderWithApp(<TaggedPosts tag="DevOps" />, { path: '/tags/DevOps', route: '/tags/:tag' });

    await screen.findByRole('link', { name: 'DevOps post 1' });
    screen.getByText('12 posts');
    screen.getByText('Page 1 / 3');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Prev' }).disabled).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('link', { name: 'DevOps post 6' });
    screen.getByText('Page 2 / 3');
    expect(router.state.location.search).toBe('?page=2');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('link', { name: 'DevOps post 11' });
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Prev' }));
    await screen.findByRole('link', { name: 'DevOps post 6' });
    expect(asked.map((url) => url.searchParams.get('page'))).toEqual(['1', '2', '3']); // page 2 again from the cache

    // a stale link past the last page
    await router.navigate('/tags/DevOps?page=9');
    await screen.findByText('Page 3 / 3');
    expect(router.state.location.search).toBe('?page=3');
  });

  it("says 'No posts found.' for a tag without posts", async () => {
    stubApi({ 'GET /api/posts/search': () => ({ body: { posts: [], totalCount: 0 } }), 'GET /api/tags': () => ({ body: [] }) });
    renderWithApp(<TaggedPosts tag="nothing" />);
    await screen.findByText('No posts found.');
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });

  it('#28.16 the tag page shows the tag as the forum knows it, whatever the case in the address', async () => {
    stubApi({
      'GET /api/tags': () => ({ body: ['DevOps', 'React'] }),
      'GET /api/posts/search': () => ({ body: { posts: [item('p1', 'Hooks or classes?', ['React'])], totalCount: 1 } }),
    });
    renderWithApp(<TaggedPosts tag="rEaCt" />);
    await screen.findByRole('link', { name: 'Hooks or classes?' });
    await screen.findByRole('heading', { level: 1, name: 'Posts Tagged with: #React' });
    screen.getByText('1 post');
    expect(document.title).toBe('#React · Forum');
  });
});
