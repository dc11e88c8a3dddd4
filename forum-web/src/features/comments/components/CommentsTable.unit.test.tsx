// @vitest-environment jsdom
import { COMMENT_PREVIEW_LENGTH, type CommentItem } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rateLimited, stubApi } from '@forum/web-ui/testing';
import { renderWithApp } from '../../../testing/render-with-app';
import { commentPage, shownStatus } from '../testing/comment-pages';
import { CommentsTable } from './CommentsTable';

const POST_ID = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
const LONG_TEXT = 'Blue-green deploys need backward compatible migrations first.';
const comments: CommentItem[] = [
  {
    _id: 'c1',
    postId: POST_ID,
    text: 'Short one',
    authorName: 'Bob Chen',
    authorId: 'u-bob',
    authorEmail: 'bob@forum.local',
    authorPhoto: '',
    createdAt: '2026-11-23T18:00:00.000Z',
    revisionCount: 1,
  },
  {
    _id: 'c2',
    postId: POST_ID,
    text: LONG_TEXT,
    authorName: 'Carol Diaz',
    authorId: 'u-carol',
    authorPhoto: '',
    createdAt: '2026-11-23T19:30:00.000Z',
    revisionCount: 1,
  },
];

function fakeServer({ list = comments, reportStatus = 201, pageSize = 20 }: { list?: CommentItem[]; reportStatus?: number; pageSize?: number } = {}) {
  const reports: Array<{ path: string; body: unknown }> = [];
  stubApi({
    [`GET /api/posts/${POST_ID}/comments`]: (request) => ({ body: commentPage(list, request, pageSize) }),
    'POST /api/comments/:id/report': async (request) => {
      reports.push({ path: new URL(request.url).pathname.replace(/^\/api/, ''), body: await request.json() });
      if (reportStatus === 409) return { status: 409, body: { error: { code: 'ALREADY_REPORTED', message: 'You have already reported this comment' } } };
      if (reportStatus === 429) return rateLimited('Too many reports. Try again in 38 minutes.', 2251);
      if (reportStatus !== 201) return { status: reportStatus, body: { error: { code: 'INTERNAL', message: 'boom' } } };
      return { status: 201, body: { id: 'r1', position: '901.1' } };
    },
  });
  return { reports };
}

const renderTable = () => renderWithApp(<CommentsTable postId={POST_ID} />, { path: `/post/${POST_ID}/comments`, route: '/post/:postId/comments' });
const rowOf = async (name: string) => (await screen.findByRole('cell', { name: new RegExp(name) })).closest('tr')!;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the comments table', () => {
  it("shows each commenter, the email only where the server gave it, and cuts long comments with 'Read more'", async () => {
    fakeServer();
    renderTable();
    const bob = await rowOf('Bob Chen');
    // the address in parts that wrap only before its '@' (#28.16), whole in its title
    expect(within(bob).getByTitle('bob@forum.local').textContent).toBe('bob@forum.local');
    within(bob).getByText('Short one');
    expect(within(bob).queryByRole('button', { name: 'Read more' })).toBeNull();

    const carol = await rowOf('Carol Diaz');
    expect(within(carol).queryByText(/@/)).toBeNull();
    within(carol).getByText(`${LONG_TEXT.slice(0, COMMENT_PREVIEW_LENGTH)}...`, { exact: false });
    expect(within(carol).queryByText(LONG_TEXT)).toBeNull();

    await userEvent.click(within(carol).getByRole('button', { name: 'Read more' }));
    const dialog = await screen.findByRole('dialog', { name: 'Comment by Carol Diaz' });
    await within(dialog).findByText(LONG_TEXT);
    within(dialog).getByText(/Posted on/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('enables Report only once a feedback is chosen, sends it, confirms and says "Reported" in its place, with the focus there', async () => {
    const { reports } = fakeServer();
    renderTable();
    const bob = await rowOf('Bob Chen');
    const report = within(bob).getByRole('button', { name: 'Report' });
    expect(report).toHaveProperty('disabled', true);

    await userEvent.click(within(bob).getByRole('combobox', { name: 'Feedback on the comment by Bob Chen' }));
    const options = within(await screen.findByRole('listbox'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Select Feedback', 'This is spam', 'Inappropriate content', 'Offensive language']);
    await userEvent.click(screen.getByRole('option', { name: 'Offensive language' }));
    expect(within(bob).getByRole('button', { name: 'Report' })).toHaveProperty('disabled', false);

    await userEvent.click(within(bob).getByRole('button', { name: 'Report' }));
    await screen.findByText('Reported! Your report has been submitted');
    expect(reports).toEqual([{ path: '/comments/c1/report', body: { feedback: 'offensive' } }]);
    expect(within(bob).queryByRole('combobox')).toBeNull();
    expect(within(bob).queryByRole('button', { name: /Report/ })).toBeNull();
    expect(bob.contains(document.activeElement) && document.activeElement?.textContent).toBe('Reported');
  });

  it('says clearly when the comment was already reported, and does not offer a second report', async () => {
    const { reports } = fakeServer({ reportStatus: 409 });
    renderTable();
    const carol = await rowOf('Carol Diaz');
    await userEvent.click(within(carol).getByRole('combobox'));
    await userEvent.click(await screen.findByRole('option', { name: 'This is spam' }));
    await userEvent.click(within(carol).getByRole('button', { name: 'Report' }));

    await screen.findByText(/You have already reported this comment/);
    within(carol).getByText('Reported');
    expect(within(carol).queryByRole('button', { name: /Report/ })).toBeNull();
    expect(reports).toHaveLength(1);
  });

  it.each([
    [500, 'Failed to submit report'],
    // over the report limit: the server's message says when to try again
    [429, 'Too many reports. Try again in 38 minutes.'],
  ])('when the report fails with %i, toasts "%s", keeping the choice to try again', async (status, toast) => {
    fakeServer({ reportStatus: status });
    renderTable();
    const bob = await rowOf('Bob Chen');
    await userEvent.click(within(bob).getByRole('combobox'));
    await userEvent.click(await screen.findByRole('option', { name: 'Inappropriate content' }));
    await userEvent.click(within(bob).getByRole('button', { name: 'Report' }));
    await screen.findByText(toast);
    await waitFor(() => expect(within(bob).getByRole('button', { name: 'Report' })).toHaveProperty('disabled', false));
  });

  it("#28.2 does not offer Report on the reader's own comment, and says why", async () => {
    const { reports } = fakeServer({
      list: [
        { ...comments[0]!, byMe: true },
        { ...comments[1]!, byMe: false },
      ],
    });
    renderTable();
    const own = await rowOf('Bob Chen');
    within(own).getByText('Your comment');
    expect(within(own).queryByRole('combobox')).toBeNull();
    expect(within(own).queryByRole('button', { name: /Report/ })).toBeNull();
    const other = await rowOf('Carol Diaz');
    within(other).getByRole('combobox', { name: 'Feedback on the comment by Carol Diaz' });
    within(other).getByRole('button', { name: 'Report' });
    expect(reports).toEqual([]);
  });

  it('#28.5 shows "Reported" instead of the feedback choice and Report on a comment the reader reported before', async () => {
    const { reports } = fakeServer({
      list: [
        { ...comments[0]!, byMe: false, reportedByMe: true },
        { ...comments[1]!, byMe: false, reportedByMe: false },
      ],
    });
    renderTable();
    const reported = await rowOf('Bob Chen');
    within(reported).getByText('Reported');
    expect(within(reported).queryByRole('combobox')).toBeNull();
    expect(within(reported).queryByRole('button', { name: /Report/ })).toBeNull();
    const open = await rowOf('Carol Diaz');
    within(open).getByRole('button', { name: 'Report' });
    expect(reports).toEqual([]);
  });

  it("shows a page of comments and 'Show more comments' adds the next rows, saying how many are shown", async () => {
    const many = Array.from({ length: 3 }, (_, i) => ({ ...comments[0]!, _id: `m${i}`, authorName: `Reader ${i}` }));
    fakeServer({ list: many, pageSize: 2 });
    renderTable();
    await rowOf('Reader 1');
    expect(screen.queryByRole('cell', { name: /Reader 2/ })).toBeNull();
    expect(shownStatus()?.textContent).toBe('Showing 2 of 3 comments');
    await userEvent.click(screen.getByRole('button', { name: 'Show more comments' }));
    await rowOf('Reader 2');
    expect(screen.getAllByRole('row')).toHaveLength(1 + 3);
    expect(screen.queryByRole('button', { name: 'Show more comments' })).toBeNull();
    expect(shownStatus()?.textContent).toBe('Showing all 3 comments');
  });

  it("says 'Loading comments...' first, then 'No comments yet. Be the first to comment!' for a post without comments", async () => {
    fakeServer({ list: [] });
    renderTable();
    screen.getByText('Loading comments...');
    await screen.findByText('No comments yet. Be the first to comment!');
    expect(screen.queryByRole('table')).toBeNull();
  });
});
