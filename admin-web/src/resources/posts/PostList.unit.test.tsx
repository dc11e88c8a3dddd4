// @vitest-environment jsdom
import type { PostListItem } from '@forum/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { atPhoneWidth, quietHttpErrors, renderConsole, respond, stubServer } from '../../testing/console';
import { PostList } from './PostList';

const post = (n: number, title: string, authorName: string, tags: string[], upVote: number, downVote: number): PostListItem => ({
  _id: `6f1c2f9e-2b7a-4c1e-9a63-2f0f8d7c6b5${n}`,
  title,
  summary: `${title}: the summary`,
  tags,
  authorName,
  authorId: `u-${n}`,
  authorPhoto: '',
  createdAt: `2026-11-2${n}T10:15:00.000Z`,
  upVote,
  downVote,
  commentCount: 0,
  revisionCount: 1,
});

const POSTS = [
  post(4, 'Zero-downtime deploys on a single server', 'Bob Chen', ['DevOps', 'Databases'], 3, 1),
  post(3, 'Welcome to the forum!', 'Alice Martin', ['Off-topic'], 0, 0),
];

/** GET /api/posts as react-admin reads it (a range, a sort; Content-Range), each query kept. */
function fakeServer(posts: PostListItem[] = POSTS) {
  const queries: URLSearchParams[] = [];
  const commands: Array<{ call: string; body: unknown }> = [];
  stubServer(({ url, method, init }) => {
    if (method !== 'GET') {
      commands.push({ call: `${method} ${url.pathname}`, body: init.body ? JSON.parse(init.body) : undefined });
      return respond({ id: 'x', position: '90.1' }, 200, { 'X-Event-Position': '90.1' });
    }
    if (url.pathname !== '/api/posts') return respond({ error: { code: 'NOT_FOUND', message: 'No such route' } }, 404);
    queries.push(url.searchParams);
    return respond(
      posts.map((p) => ({ id: p._id, ...p })),
      200,
      { 'Content-Range': `posts ${posts.length ? `0-${posts.length - 1}` : '*'}/${posts.length}` },
    );
  });
  return { queries, commands };
}

const renderPosts = (role: 'admin' | 'moderator' = 'admin') => renderConsole(<PostList />, { path: '/admin/posts', resource: 'posts', role });
const historyPath = (p: PostListItem) => `/admin/history/post/${p._id}`;

describe('Posts', () => {
  it('lists title, author, tags, time, votes, newest first, sortable by its columns; History opens each post’s history', async () => {
    const { queries } = fakeServer();
    renderPosts();
    const deploys = (await screen.findByText(POSTS[0]!.title)).closest('tr')!;
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Title', 'Author', 'Tags', 'Created at', 'Up', 'Down', 'Actions']);
    expect(JSON.parse(queries[0]!.get('sort')!)).toEqual(['createdAt', 'DESC']);
    expect(within(deploys).getByText('Bob Chen')).toBeTruthy();
    expect(within(deploys).getByText('DevOps')).toBeTruthy();
    expect(within(deploys).getByText(new Date(POSTS[0]!.createdAt).toLocaleDateString(), { exact: false })).toBeTruthy();
    for (const p of POSTS) {
      expect(screen.getByRole('link', { name: `History of the post “${p.title}”` }).getAttribute('href')).toBe(historyPath(p));
    }
    // the columns a post can be sorted by on the server
    await userEvent.click(screen.getByRole('button', { name: 'Sort by up ascending' }));
    await waitFor(() => expect((JSON.parse(queries.at(-1)!.get('sort')!) as string[])[0]).toBe('upVote'));
  });
});

describe('Posts on a phone', () => {
  it('shows each post as a card with the table’s columns as lines and its History, and no table', async () => {
    atPhoneWidth();
    fakeServer();
    renderPosts();
    const deploys = await screen.findByRole('article', { name: POSTS[0]!.title });
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual(POSTS.map((p) => p.title));
    for (const label of ['Title', 'Author', 'Tags', 'Created at', 'Up', 'Down']) expect(within(deploys).getByText(label)).toBeTruthy();
    expect(within(deploys).getByText('Bob Chen')).toBeTruthy();
    expect(within(deploys).getByText('Databases')).toBeTruthy();
    expect(within(deploys).getByText('3')).toBeTruthy();
    expect(
      within(deploys)
        .getByRole('link', { name: `History of the post “${POSTS[0]!.title}”` })
        .getAttribute('href'),
    ).toBe(historyPath(POSTS[0]!));
  });
});

describe('Posts: Edit with a reason', () => {
  /** The list, the post read in full, and PATCH answered by `patch`; each PATCH's body kept. */
  function editServer(patch: () => Response) {
    const sent: unknown[] = [];
    const target = POSTS[0]!;
    stubServer(({ url, method, init }) => {
      if (method === 'PATCH' && url.pathname === `/api/posts/${target._id}`) {
        sent.push(JSON.parse(String(init.body)));
        return patch();
      }
      if (url.pathname === `/api/posts/${target._id}`)
        return respond({ ...target, id: target._id, description: 'Blue-green with a databse switch.', authorEmail: 'bob@forum.local' });
      return respond(
        POSTS.map((p) => ({ id: p._id, ...p })),
        200,
        { 'Content-Range': `posts 0-${POSTS.length - 1}/${POSTS.length}` },
      );
    });
    return { sent, target };
  }

  it("opens the post's title and description with a Reason, required for someone else's post, and sends what changed with it", async () => {
    const { sent, target } = editServer(() => respond({ id: POSTS[0]!._id, position: '50.1' }));
    renderConsole(<PostList />, { path: '/admin/posts', resource: 'posts', identity: { id: 'admin', fullName: 'Admin', email: 'admin@forum.local' } });
    await userEvent.click(await screen.findByRole('button', { name: `Edit the post “${target.title}”` }));
    const dialog = await screen.findByRole('dialog', { name: `Edit the post “${target.title}”` });
    const description = await within(dialog).findByRole('textbox', { name: 'Description' });
    expect((description as HTMLTextAreaElement).value).toBe('Blue-green with a databse switch.');
    await userEvent.clear(description);
    await userEvent.type(description, 'Blue-green with a database switch.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Reason must not be empty')).toBeTruthy();
    expect(sent).toEqual([]);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Typo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toEqual([{ description: 'Blue-green with a database switch.', reason: 'Typo' }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows the server's refusal and stays open", async () => {
    quietHttpErrors();
    const { target } = editServer(() =>
      respond({ error: { code: 'VALIDATION_FAILED', message: 'The request is not valid', details: { title: ['Title is too spammy'] } } }, 400),
    );
    renderConsole(<PostList />, { path: '/admin/posts', resource: 'posts', identity: { id: 'admin', fullName: 'Admin', email: 'admin@forum.local' } });
    await userEvent.click(await screen.findByRole('button', { name: `Edit the post “${target.title}”` }));
    const dialog = await screen.findByRole('dialog', { name: `Edit the post “${target.title}”` });
    await userEvent.type(await within(dialog).findByRole('textbox', { name: 'Title' }), '!');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Clearer');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Title is too spammy')).toBeTruthy();
    expect(await screen.findByText('The request is not valid')).toBeTruthy();
  });

  it('lets a moderator pin, lock with a reason, hide with a reason and unpin or unlock what is pinned or locked', async () => {
    const { commands } = fakeServer([{ ...POSTS[0]!, pinned: true, locked: true }, POSTS[1]!]);
    renderPosts('moderator');
    const welcome = POSTS[1]!;
    const buttonOf = (name: string) => waitFor(() => screen.getByRole('button', { name }));
    await userEvent.click(await buttonOf(`Pin the post “${welcome.title}”`));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Pin' }));
    expect(await screen.findByText('Post pinned')).toBeTruthy();

    await userEvent.click(await buttonOf(`Lock the post “${welcome.title}”`));
    let dialog = await screen.findByRole('dialog', { name: 'Lock this post?' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Off topic now');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Lock' }));
    expect(await screen.findByText('Post locked')).toBeTruthy();

    await userEvent.click(await buttonOf(`Hide the post “${welcome.title}”`));
    dialog = await screen.findByRole('dialog', { name: 'Hide this post?' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Personal data');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Hide' }));
    expect(await screen.findByText('The post is hidden')).toBeTruthy();

    await userEvent.click(await buttonOf(`Unpin the post “${POSTS[0]!.title}”`));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unpin' }));
    expect(await screen.findByText('Post unpinned')).toBeTruthy();
    expect(await buttonOf(`Unlock the post “${POSTS[0]!.title}”`)).toBeTruthy();

    const path = (p: PostListItem) => `/api/admin/posts/${p._id}`;
    expect(commands).toEqual([
      { call: `PUT ${path(welcome)}/pin`, body: undefined },
      { call: `PUT ${path(welcome)}/lock`, body: { reason: 'Off topic now' } },
      { call: `PUT ${path(welcome)}/hide`, body: { reason: 'Personal data' } },
      { call: `DELETE ${path(POSTS[0]!)}/pin`, body: undefined },
    ]);
  });
});
