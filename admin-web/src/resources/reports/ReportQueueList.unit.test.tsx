// @vitest-environment jsdom
import type { QueueItem } from '@forum/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderConsole, respond, stubServer } from '../../testing/console';
import { ReportQueueList } from './ReportQueueList';

const POST_ID = '6f1c2f9e-2b7a-4c1e-9a63-2f0f8d7c6b51';
const COMMENT_ID = '7a2d3f0e-3c8b-4d2f-8b74-3e1f9e8d7c62';
const person = (id: string, name: string) => ({ _id: id, name, photoURL: '' });

const POST_ITEM: QueueItem = {
  kind: 'post',
  _id: POST_ID,
  postId: POST_ID,
  postTitle: 'Cheap watches here',
  text: 'Buy now at a great price',
  author: { ...person('u-spam', 'Sid Spammer'), role: 'user', suspendedUntil: null },
  reports: [
    { reporter: person('u-ann', 'Ann Author'), feedback: 'spam', reportedAt: '2026-11-28T09:00:00.000Z' },
    { reporter: person('u-ben', 'Ben Basic'), feedback: 'spam', reportedAt: '2026-11-28T10:00:00.000Z' },
  ],
  reportCount: 2,
  firstReportedAt: '2026-11-28T09:00:00.000Z',
  hidden: false,
  deleted: false,
  warned: false,
};
const COMMENT_ITEM: QueueItem = {
  ...POST_ITEM,
  kind: 'comment',
  _id: COMMENT_ID,
  postTitle: 'Welcome to the forum!',
  text: 'You are all idiots',
  author: { ...person('u-mia', 'Mia Moderator'), role: 'moderator' },
  reports: [{ reporter: person('u-ann', 'Ann Author'), feedback: 'offensive', reportedAt: '2026-11-28T11:00:00.000Z' }],
  reportCount: 1,
  firstReportedAt: '2026-11-28T11:00:00.000Z',
};
const HANDLED_ITEM: QueueItem = {
  ...POST_ITEM,
  hidden: true,
  handled: { action: 'hidden', byName: 'Mo Derator', at: '2026-11-29T08:00:00.000Z', reason: 'Advertising' },
};

/** The query and command services: the queue per status (page 1), and every staff command kept with its body. */
function fakeServer(open: QueueItem[] = [POST_ITEM, COMMENT_ITEM], handled: QueueItem[] = [HANDLED_ITEM]) {
  const commands: Array<{ call: string; body: unknown }> = [];
  const reads: string[] = [];
  stubServer(({ url, method, init }) => {
    if (method === 'GET' && url.pathname === '/api/admin/reports') {
      reads.push(url.search);
      const items = url.searchParams.get('status') === 'handled' ? handled : open;
      return respond({ items, totalCount: items.length, page: Number(url.searchParams.get('page')) });
    }
    if (method !== 'GET') {
      commands.push({ call: `${method} ${url.pathname}`, body: init.body ? JSON.parse(init.body) : undefined });
      return respond({ id: 'x', position: '80.1' }, 200, { 'X-Event-Position': '80.1' });
    }
    return respond({ error: { code: 'NOT_FOUND', message: 'No such route' } }, 404);
  });
  return { commands, reads };
}

const renderQueue = (role: 'admin' | 'moderator' = 'moderator') => renderConsole(<ReportQueueList />, { path: '/admin/reports', resource: 'reports', role });
const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;
const buttonOf = (text: string, name: string | RegExp) => waitFor(async () => within(await rowOf(text)).getByRole('button', { name }));

describe('Reports (the moderators’ queue)', () => {
  it('shows one row per reported item: kind, post title linking to the forum, text, author and role, reports counted with their reporters', async () => {
    const { reads } = fakeServer();
    renderQueue();
    const row = await rowOf('Buy now at a great price');
    expect(within(row).getByText('Post')).toBeTruthy();
    expect(
      within(row)
        .getByRole('link', { name: /Cheap watches here/ })
        .getAttribute('href'),
    ).toBe(`/post/${POST_ID}`);
    expect(within(row).getByText('Sid Spammer')).toBeTruthy();
    expect(within(row).getByText('Member')).toBeTruthy();
    expect(within(row).getByText('2 reports')).toBeTruthy();
    expect(within(row).getByText('Spam × 2')).toBeTruthy();
    expect(within(row).getByText('By Ann Author, Ben Basic')).toBeTruthy();
    expect(reads[0]).toBe('?status=open&page=1');
    const comment = await rowOf('You are all idiots');
    expect(within(comment).getByText('Comment')).toBeTruthy();
    expect(within(comment).getByText('Moderator')).toBeTruthy();
  });

  it('dismisses an item’s reports after a confirmation', async () => {
    const { commands } = fakeServer();
    renderQueue();
    await userEvent.click(await buttonOf('Buy now at a great price', 'Dismiss the reports of the Post “Cheap watches here”'));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Dismiss reports' }));
    expect(await screen.findByText('Reports dismissed')).toBeTruthy();
    expect(commands).toEqual([{ call: `POST /api/admin/reports/post/${POST_ID}/dismiss`, body: undefined }]);
  });

  it('hides a post with the reason its author is told (a reason is required)', async () => {
    const { commands } = fakeServer();
    renderQueue();
    await userEvent.click(await buttonOf('Buy now at a great price', 'Hide the Post “Cheap watches here”'));
    const dialog = await screen.findByRole('dialog', { name: 'Hide this post?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Hide' }));
    expect(await within(dialog).findByText('Reason must not be empty')).toBeTruthy();
    expect(commands).toEqual([]);
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Advertising');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Hide' }));
    expect(await screen.findByText('The post is hidden')).toBeTruthy();
    expect(commands).toEqual([{ call: `PUT /api/admin/posts/${POST_ID}/hide`, body: { reason: 'Advertising' } }]);
  });

  it('deletes a post after a confirmation', async () => {
    const { commands } = fakeServer();
    renderQueue();
    await userEvent.click(await buttonOf('Buy now at a great price', 'Delete the Post “Cheap watches here”'));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete post' }));
    expect(await screen.findByText('The post is deleted')).toBeTruthy();
    expect(commands).toEqual([{ call: `DELETE /api/posts/${POST_ID}`, body: undefined }]);
  });

  it('warns the author about the item, with a reason', async () => {
    const { commands } = fakeServer();
    renderQueue();
    await userEvent.click(await buttonOf('Buy now at a great price', 'Warn author Sid Spammer about the Post “Cheap watches here”'));
    const dialog = await screen.findByRole('dialog', { name: 'Warn Sid Spammer?' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'No advertising');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Warn' }));
    expect(await screen.findByText('Warned! User has been warned')).toBeTruthy();
    expect(commands).toEqual([{ call: 'POST /api/admin/users/u-spam/warnings', body: { reason: 'No advertising', about: { kind: 'post', id: POST_ID } } }]);
  });

  it('suspends the author until lifted, naming the item', async () => {
    const { commands } = fakeServer();
    renderQueue();
    await userEvent.click(await buttonOf('Buy now at a great price', 'Suspend author Sid Spammer of the Post “Cheap watches here”'));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend Sid Spammer?' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Until lifted' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Spam account');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('Sid Spammer is suspended')).toBeTruthy();
    expect(commands).toEqual([
      { call: 'POST /api/admin/users/u-spam/suspend', body: { reason: 'Spam account', period: 'indefinite', about: { kind: 'post', id: POST_ID } } },
    ]);
  });

  it('offers a moderator no Hide, Warn or Suspend on another moderator’s comment (staff are protected); an admin gets them', async () => {
    fakeServer();
    const { unmount } = renderQueue('moderator');
    await buttonOf('You are all idiots', /Dismiss/);
    const row = await rowOf('You are all idiots');
    expect(within(row).getByRole('button', { name: /Delete/ })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /Hide|Warn|Suspend/ })).toBeNull();
    unmount();
    renderQueue('admin');
    expect(await buttonOf('You are all idiots', 'Suspend author Mia Moderator of the Comment on “Welcome to the forum!”')).toBeTruthy();
  });

  it('shows handled items in the Handled tab: how, by whom, when and why; a hidden item can be unhidden', async () => {
    const { reads, commands } = fakeServer();
    renderQueue();
    await rowOf('You are all idiots');
    await userEvent.click(screen.getByRole('tab', { name: 'Handled' }));
    const row = await rowOf('Reason: Advertising');
    expect(within(row).getAllByText('Hidden')).toHaveLength(2); // how it was handled, and the item's mark
    expect(within(row).getByText(/by Mo Derator/)).toBeTruthy();
    expect(reads.at(-1)).toBe('?status=handled&page=1');
    await userEvent.click(within(row).getByRole('button', { name: 'Unhide the Post “Cheap watches here”' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unhide' }));
    expect(await screen.findByText('The post is visible again')).toBeTruthy();
    expect(commands).toEqual([{ call: `DELETE /api/admin/posts/${POST_ID}/hide`, body: undefined }]);
  });

  it('counts every report of an item reported by many, naming the first reporters and how many more', async () => {
    fakeServer([{ ...POST_ITEM, reportCount: 25 }], []);
    renderQueue();
    const row = await rowOf('Cheap watches here');
    expect(within(row).getByText('25 reports')).toBeTruthy();
    expect(within(row).getByText('By Ann Author, Ben Basic and 23 more')).toBeTruthy();
  });

  it('lists a post hidden without a report among the handled, as Not reported, so that it can be unhidden', async () => {
    const unreported: QueueItem = {
      ...HANDLED_ITEM,
      reports: [],
      reportCount: 0,
      firstReportedAt: null,
      handled: { ...HANDLED_ITEM.handled!, reason: 'Off topic' },
    };
    const { commands } = fakeServer(undefined, [unreported]);
    renderQueue();
    await rowOf('You are all idiots');
    await userEvent.click(screen.getByRole('tab', { name: 'Handled' }));
    const row = await rowOf('Reason: Off topic');
    expect(within(row).getByText('Not reported')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Unhide the Post “Cheap watches here”' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unhide' }));
    expect(commands).toEqual([{ call: `DELETE /api/admin/posts/${POST_ID}/hide`, body: undefined }]);
  });

  it('says so in plain words when there is nothing to review', async () => {
    fakeServer([], []);
    renderQueue();
    expect(await screen.findByText('Nothing to review')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'Handled' }));
    expect(await screen.findByText('Nothing handled yet')).toBeTruthy();
  });
});
