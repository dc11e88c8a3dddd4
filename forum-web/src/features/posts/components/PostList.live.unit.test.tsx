// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { FakeEventSource, installFakeEventSource, streamFollowing } from '../../../testing/fake-event-source';
import { postItem } from '../../../testing/post-items';
import { renderWithApp } from '../../../testing/render-with-app';
import { PostList } from './PostList';

const id = (n: number) => `6f1c8a52-1111-4a4a-9a9a-${String(n).padStart(12, '0')}`;

/**
 * The home list's server: `count` posts newest first (post `count` is the newest), 5 a page,
 * newest or popularity alike; each read kept in `reads` as "sort page X-Min-Position".
 */
function stubPosts(initial: number) {
  const server = { count: initial, reads: [] as string[] };
  stubApi({
    'GET /api/posts': (request) => {
      const url = new URL(request.url);
      const page = Number(url.searchParams.get('page'));
      server.reads.push(`${url.searchParams.get('sort')} ${page} ${request.headers.get('X-Min-Position') ?? '-'}`);
      const from = server.count - (page - 1) * 5;
      const posts = Array.from({ length: Math.max(0, Math.min(5, from)) }, (_, i) => postItem(id(from - i), `Post number ${from - i}`, []));
      return { body: { posts, totalCount: server.count } };
    },
  });
  return server;
}

const titles = () => screen.getAllByRole('article').map((card) => within(card).getByRole('heading').textContent);
const bar = () => screen.queryByRole('button', { name: /new posts?$/ });
const renderList = (path = '/') => renderWithApp(<PostList />, { path, route: '/', user: null });

const postsStream = () => streamFollowing('posts');

beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
  installFakeEventSource();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the home list's 'N new posts'", () => {
  it('counts posts written meanwhile without moving the list, and shows them when pressed, read at the newest position', async () => {
    const server = stubPosts(7);
    renderList();
    await waitFor(() => expect(titles()[0]).toBe('Post number 7'));
    const stream = await postsStream();
    const shownBefore = titles();

    server.count = 9;
    stream.send('post-created', { position: '50.8', postId: id(8) }, '50.8');
    // a post the list shows already (a replay) is not news
    stream.send('post-created', { position: '50.7', postId: id(7) }, '50.7');
    const button = await screen.findByRole('button', { name: '1 new post' });
    // said politely to a screen reader, and the list stays as it was
    expect(button.closest('[role="status"]')).not.toBeNull();
    expect(titles()).toEqual(shownBefore);

    stream.send('post-created', { position: '50.9', postId: id(9) }, '50.9');
    await screen.findByRole('button', { name: '2 new posts' });
    expect(titles()).toEqual(shownBefore);
    expect(server.reads).toEqual(['newest 1 -']);

    await userEvent.click(screen.getByRole('button', { name: '2 new posts' }));
    await waitFor(() => expect(titles()).toEqual(['Post number 9', 'Post number 8', 'Post number 7', 'Post number 6', 'Post number 5']));
    expect(server.reads).toEqual(['newest 1 -', 'newest 1 50.9']);
    expect(bar()).toBeNull();
    // the button has gone: the keyboard is at the top of the list
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Posts' }));
  });

  it('from another page or sort, goes to the first page of the newest', async () => {
    const server = stubPosts(12);
    const { router } = renderList('/?page=2&sort=popularity');
    await waitFor(() => expect(titles()[0]).toBe('Post number 7'));
    const stream = await postsStream();

    server.count = 13;
    stream.send('post-created', { position: '60.1', postId: id(13) }, '60.1');
    await userEvent.click(await screen.findByRole('button', { name: '1 new post' }));
    await waitFor(() => expect(titles()[0]).toBe('Post number 13'));
    expect(router.state.location.search).toBe('');
    expect(server.reads).toContain('newest 1 60.1');
    expect(bar()).toBeNull();
  });

  it('a new post the list takes in when it is read again (the tab back in focus) is no longer counted', async () => {
    const server = stubPosts(3);
    const { store } = renderList();
    await waitFor(() => expect(titles()).toHaveLength(3));
    const stream = await postsStream();
    server.count = 4;
    stream.send('post-created', { position: '70.4', postId: id(4) }, '70.4');
    await screen.findByRole('button', { name: '1 new post' });

    store.dispatch({ type: '__rtkq/focused' });
    await waitFor(() => expect(titles()[0]).toBe('Post number 4'));
    expect(bar()).toBeNull();
  });

  it('marks a shown post deleted meanwhile, in its place; a new post deleted before it was seen is not counted', async () => {
    stubPosts(5);
    renderList();
    await waitFor(() => expect(titles()).toHaveLength(5));
    const stream = await postsStream();

    stream.send('post-created', { position: '80.6', postId: id(6) }, '80.6');
    await screen.findByRole('button', { name: '1 new post' });
    stream.send('post-deleted', { position: '80.7', postId: id(6) }, '80.7');
    stream.send('post-deleted', { position: '80.8', postId: id(3) }, '80.8');

    const third = screen.getAllByRole('article')[2]!;
    await within(third).findByText('This post has been deleted.');
    expect(within(third).getByRole('heading').textContent).toBe('Post number 3');
    expect(titles()).toHaveLength(5);
    expect(bar()).toBeNull();
  });

  it("reads the list again on the stream's 'refetch'", async () => {
    const server = stubPosts(5);
    renderList();
    await waitFor(() => expect(titles()).toHaveLength(5));
    const stream = await postsStream();
    server.count = 6;
    stream.send('refetch', { position: '90.1' }, '90.1');
    await waitFor(() => expect(titles()[0]).toBe('Post number 6'));
  });

  it('works as without the stream when the stream is down: nothing said, nothing logged', async () => {
    const errors = vi.spyOn(console, 'error');
    const server = stubPosts(5);
    renderList();
    await waitFor(() => expect(titles()).toHaveLength(5));
    const stream = await postsStream();
    stream.fail({ closed: true });
    expect(stream.readyState).toBe(FakeEventSource.CLOSED);

    server.count = 6;
    expect(titles()).toHaveLength(5);
    expect(bar()).toBeNull();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Popularity');
    await waitFor(() => expect(server.reads).toContain('popularity 1 -'));
    expect(errors).not.toHaveBeenCalled();
  });
});
