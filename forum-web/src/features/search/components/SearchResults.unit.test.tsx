// @vitest-environment jsdom
import type { SearchResult } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubApi } from '@forum/web-ui/testing';
import { SearchPage } from '../../../app/routes/search';
import { postItem } from '../../../testing/post-items';
import { renderWithApp } from '../../../testing/render-with-app';

// a page change scrolls the heading into view; jsdom lays nothing out
beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A post found by 'ocelot': its title and snippet with the word marked. */
const found = (id: string, title: string): SearchResult => ({
  ...postItem(id, title, ['Wildlife', 'Cats']),
  snippet: {
    title: [{ text: title, marked: false }],
    description: [
      { text: 'we saw two ', marked: false },
      { text: 'ocelots', marked: true },
      { text: ' near <b>camp</b> …', marked: false },
    ],
  },
});

const at = (q: string, page?: number) => `/search?${new URLSearchParams({ q, ...(page ? { page: String(page) } : {}) })}`;
const renderAt = (path: string) => renderWithApp(<SearchPage />, { path, route: '/search' });

describe('the search results page', () => {
  it('shows the words, how many posts were found and each as a card: the title linking to the post, the snippet with the words found marked, tags, author', async () => {
    const asked: URL[] = [];
    stubApi({
      'GET /api/posts/search': (request) => {
        asked.push(new URL(request.url));
        return { body: { posts: [found('p1', 'Highland wildlife'), found('p2', 'Spotted cats')], totalCount: 2, totalCountCapped: false } };
      },
    });
    renderAt(at('ocelot'));

    await screen.findByRole('heading', { level: 1, name: 'Search results for “ocelot”' });
    await screen.findByText('2 posts found');
    const results = screen.getByRole('list', { name: 'Search results' });
    const cards = within(results).getAllByRole('article');
    expect(cards).toHaveLength(2);
    const first = cards[0]!;
    expect(within(first).getByRole('link', { name: 'Highland wildlife' }).getAttribute('href')).toBe('/post/p1');
    // the marked word as <mark>; text that looks like markup stays text
    const marks = first.querySelectorAll('mark');
    expect([...marks].map((mark) => mark.textContent)).toEqual(['ocelots']);
    expect(first.querySelector('b')).toBeNull();
    within(first).getByText((_, element) => element?.tagName === 'P' && element.textContent === 'we saw two ocelots near <b>camp</b> …');
    expect(
      within(within(first).getByRole('list', { name: 'Tags' }))
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['#Wildlife', '#Cats']);
    within(first).getByText('Bob Chen');
    expect(document.title).toBe('ocelot · Search · Forum');
    expect(asked[0]!.searchParams.get('q')).toBe('ocelot');
    expect(asked[0]!.searchParams.get('page')).toBe('1');
    // one page: no pager
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });

  it("says 'more than 1,000 posts found' when the API stopped counting, and pages: Next, the page in the address", async () => {
    const asked: URL[] = [];
    stubApi({
      'GET /api/posts/search': (request) => {
        const url = new URL(request.url);
        asked.push(url);
        const page = Number(url.searchParams.get('page'));
        const posts = Array.from({ length: 5 }, (_, i) => found(`p${page}-${i}`, `Database post ${page}.${i}`));
        return { body: { posts, totalCount: 1000, totalCountCapped: true } };
      },
    });
    const { router } = renderAt(at('database'));

    await screen.findByText(/^More than 1,000 posts found/);
    screen.getByText('Page 1 / 200');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('link', { name: 'Database post 2.0' });
    screen.getByText('Page 2 / 200');
    expect(router.state.location.search).toBe('?q=database&page=2');
    expect(asked.map((url) => url.searchParams.get('page'))).toEqual(['1', '2']);
  });

  it("says 'N posts found' and '1 post found' for exact totals", async () => {
    let total = 7;
    stubApi({ 'GET /api/posts/search': () => ({ body: { posts: [found('p1', 'One')], totalCount: total, totalCountCapped: false } }) });
    renderAt(at('one'));
    await screen.findByText('7 posts found');
    cleanup();
    total = 1;
    renderAt(at('only'));
    await screen.findByText('1 post found');
  });

  it('says in plain words that no posts match', async () => {
    stubApi({ 'GET /api/posts/search': () => ({ body: { posts: [], totalCount: 0, totalCountCapped: false } }) });
    renderAt(at('qwertyuiop'));
    await screen.findByText('No posts match “qwertyuiop”.');
    screen.getByText('Check the spelling, or try other or fewer words.');
    expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull();
  });

  it('when the searches are busy (503 BUSY), says so and tries again on Try again', async () => {
    let busy = true;
    stubApi({
      'GET /api/posts/search': () =>
        busy
          ? json({ error: { code: 'BUSY', message: 'Too many searches at once; try again in a moment' } }, 503, { 'Retry-After': '1' })
          : { body: { posts: [found('p1', 'Found at last')], totalCount: 1, totalCountCapped: false } },
    });
    renderAt(at('ocelot'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Search is busy, please try again in a moment.');
    busy = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('link', { name: 'Found at last' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says any other failure in plain words, and can try again', async () => {
    stubApi({ 'GET /api/posts/search': () => json({ error: { code: 'INTERNAL', message: 'Something broke' } }, 500) });
    renderAt(at('ocelot'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The search did not work. Please try again.');
    within(alert).getByRole('button', { name: 'Try again' });
  });

  it('asks nothing of the API for no words or too many characters, and says why', async () => {
    const { calls } = stubApi({});
    renderAt('/search');
    await screen.findByRole('heading', { level: 1, name: 'Search posts' });
    screen.getByText(/Type a word or two in the search box/);
    cleanup();

    renderAt(at('x'.repeat(201)));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Search text must be at most 200 characters');
    await waitFor(() => expect(calls.filter((call) => call.includes('search'))).toEqual([]));
  });
});
