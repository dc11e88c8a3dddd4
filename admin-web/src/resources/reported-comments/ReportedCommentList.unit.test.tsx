// @vitest-environment jsdom
import type { ReportedComment } from '@forum/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { descriptionOf } from '@forum/web-ui/testing';
import { quietHttpErrors, renderConsole, respond, stubServer } from '../../testing/console';
import { ReportedCommentList } from './ReportedCommentList';

const BEN = { name: 'Ben Commenter', email: 'ben@forum.test', photoURL: '' };
const CARA = { name: 'Cara Reporter', email: 'cara@forum.test', photoURL: '' };
const DAN = { name: 'Dan Reporter', email: 'dan@forum.test', photoURL: '' };
const EVE = { name: 'Eve Writer', email: 'eve@forum.test', photoURL: '' };

const SPAMMY = 'Buy cheap watches at my site!!!';
const RUDE = 'Nobody asked for your opinion.';

const report = (reportId: string, commentId: string, reporter: typeof CARA, feedback: ReportedComment['feedback'], reportedAt: string): ReportedComment => {
  const comment = commentId === 'c-1' ? { text: SPAMMY, postId: 'p-1', author: BEN } : { text: RUDE, postId: 'p-2', author: EVE };
  return { _id: commentId, reportId, ...comment, reporter, feedback, reportedAt, reportCount: 0, warned: false };
};

/** Three open reports, newest first: the spammy comment twice (Dan, then Cara), the rude one once. */
const REPORTS = [
  report('r-3', 'c-1', DAN, 'offensive', '2026-11-24T10:15:00.000Z'),
  report('r-2', 'c-2', CARA, 'inappropriate', '2026-11-24T09:00:00.000Z'),
  report('r-1', 'c-1', CARA, 'spam', '2026-11-23T18:30:00.000Z'),
];

interface Options {
  /** the answers to GET …/reported-comments, in turn (the last one repeats) */
  listStatus?: Array<{ status: number; body?: unknown; text?: string }>;
  deleteAnswer?: { status: number; body?: unknown };
  warnAnswer?: { status: number; body?: unknown };
}

/**
 * The services behind the console: GET /api/admin/reported-comments (one row per report with its
 * comment's report count, Content-Range), DELETE /api/admin/comments/:id (the comment and its
 * reports go), POST /api/admin/warn-user/:email.
 */
function fakeServer(rows: ReportedComment[] = REPORTS, { listStatus = [], deleteAnswer = { status: 200 }, warnAnswer = { status: 201 } }: Options = {}) {
  let open = [...rows];
  const warnings: Array<{ path: string; body: unknown }> = [];
  const warned = new Set<string>();
  let reads = 0;
  const { calls } = stubServer(({ url, method, init }) => {
    if (method === 'GET' && url.pathname === '/api/admin/reported-comments') {
      const failure = listStatus[Math.min(reads++, listStatus.length - 1)];
      if (failure && failure.status !== 200) return respond(failure.text ?? failure.body ?? {}, failure.status);
      const [start, end] = JSON.parse(url.searchParams.get('range')!) as [number, number];
      const page = open
        .slice(start, end + 1)
        .map((row) => ({ id: row.reportId, ...row, reportCount: open.filter((r) => r._id === row._id).length, warned: row.warned || warned.has(row._id) }));
      return respond(page, 200, { 'Content-Range': `reported-comments ${page.length ? `${start}-${start + page.length - 1}` : '*'}/${open.length}` });
    }
    const removal = /^\/api\/admin\/comments\/(.+)$/.exec(url.pathname);
    if (method === 'DELETE' && removal) {
      if (deleteAnswer.status !== 200) return respond(deleteAnswer.body ?? '', deleteAnswer.status);
      open = open.filter((row) => row._id !== removal[1]);
      return respond({ id: removal[1], position: '81.4' }, 200, { 'X-Event-Position': '81.4' });
    }
    if (method === 'POST' && url.pathname.startsWith('/api/admin/warn-user/')) {
      const body = JSON.parse(String(init.body)) as { commentId: string };
      warnings.push({ path: url.pathname, body });
      if (warnAnswer.status !== 201) return respond(warnAnswer.body ?? '', warnAnswer.status);
      warned.add(body.commentId);
      return respond({ id: 'w-1', position: '82.1' }, 201, { 'X-Event-Position': '82.1' });
    }
    return respond({ error: { code: 'NOT_FOUND', message: 'No such route' } }, 404);
  });
  return { calls, warnings, reads: () => calls.filter((call) => call === 'GET /api/admin/reported-comments').length };
}

const renderReports = () => renderConsole(<ReportedCommentList />, { path: '/admin/reported-comments', resource: 'reported-comments' });

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;
const dataRows = () => screen.getAllByRole('row').slice(1);

describe('Reported Comments', () => {
  it("shows the badge 'N reports' and one row per comment with all of its reporters, feedback and times", async () => {
    fakeServer();
    renderReports();
    const spammy = await rowOf(SPAMMY);
    expect(screen.getByText('3 reports')).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Comment',
      'Author',
      'Reporter',
      'Feedback',
      'Reported At',
      'Actions',
    ]);
    expect(dataRows()).toHaveLength(2);

    const cells = within(spammy).getAllByRole('cell');
    expect(within(cells[0]!).getByText('Reported 2 times')).toBeTruthy();
    expect(within(cells[0]!).getByRole('link', { name: 'View Post' }).getAttribute('href')).toBe('/post/p-1');
    expect(within(cells[0]!).getByRole('link', { name: 'History' }).getAttribute('href')).toBe('/admin/history/post/p-1');
    expect(cells[1]!.textContent).toBe(`${BEN.name}${BEN.email}`);
    // a line per report, newest first, in each of the three columns
    expect(
      within(cells[2]!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([`${DAN.name}${DAN.email}`, `${CARA.name}${CARA.email}`]);
    expect(
      within(cells[3]!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Offensive', 'Spam']);
    const times = cells[4]!.querySelectorAll('time');
    expect([...times].map((time) => time.getAttribute('datetime'))).toEqual(['2026-11-24T10:15:00.000Z', '2026-11-23T18:30:00.000Z']);
    expect(times[0]!.textContent).toMatch(/2026/);

    const rude = await rowOf(RUDE);
    expect(within(rude).queryByText(/Reported \d+ times/)).toBeNull();
    expect(within(rude).getByText('Inappropriate')).toBeTruthy();
    expect(within(rude).getByRole('link', { name: 'View Post' }).getAttribute('href')).toBe('/post/p-2');
  });

  it("#39 edge 13: 'View Post' opens the forum's post in a new tab, as its icon says, and its name says so too", async () => {
    fakeServer();
    renderReports();
    const view = within(await rowOf(SPAMMY)).getByRole('link', { name: 'View Post' });
    expect(view.getAttribute('target')).toBe('_blank');
    expect(view.getAttribute('rel')).toBe('noopener noreferrer');
    expect(descriptionOf(view)).toBe('opens in a new tab');
  });

  it('deletes a comment after the confirmation: all of its reports go with its one row', async () => {
    const { calls } = fakeServer();
    renderReports();
    await userEvent.click(within(await rowOf(SPAMMY)).getByRole('button', { name: /^Delete/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(confirm.textContent).toContain("You won't be able to revert this!");
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes, delete it!' }));

    expect(await screen.findByText('Deleted! Comment deleted successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(SPAMMY)).toBeNull());
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual(['DELETE /api/admin/comments/c-1']);
    expect(screen.getByText('1 report')).toBeTruthy();
    expect(dataRows()).toHaveLength(1);
  });

  it('deletes nothing when the confirmation is cancelled', async () => {
    const { calls } = fakeServer();
    renderReports();
    await userEvent.click(within(await rowOf(RUDE)).getByRole('button', { name: /^Delete/ }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);
    expect(dataRows()).toHaveLength(2);
  });

  it("says the server's message when a delete fails, else 'Failed to delete comment', and the row stays", async () => {
    quietHttpErrors();
    fakeServer(REPORTS, { deleteAnswer: { status: 404, body: { error: { code: 'NOT_FOUND', message: 'No such comment' } } } });
    renderReports();
    await userEvent.click(within(await rowOf(RUDE)).getByRole('button', { name: /^Delete/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, delete it!' }));
    expect(await screen.findByText('No such comment')).toBeTruthy();
    expect(screen.getByText(RUDE)).toBeTruthy();
    cleanup();

    fakeServer(REPORTS, { deleteAnswer: { status: 502 } });
    renderReports();
    await userEvent.click(within(await rowOf(RUDE)).getByRole('button', { name: /^Delete/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, delete it!' }));
    expect(await screen.findByText('Failed to delete comment')).toBeTruthy();
  });

  it("#28.6 warns the comment's author after the confirmation, naming the comment; the row then says 'Warned' and offers no second warning", async () => {
    const { warnings, reads } = fakeServer([
      ...REPORTS,
      { ...report('r-0', 'c-3', CARA, 'spam', '2026-11-22T08:00:00.000Z'), text: 'Warned before', warned: true },
    ]);
    renderReports();
    const before = await rowOf('Warned before');
    within(before).getByText('Warned');
    expect(within(before).queryByRole('button', { name: /^Warn User/ })).toBeNull();
    within(before).getByRole('button', { name: /^Delete/ });

    const spammy = await rowOf(SPAMMY);
    expect(within(spammy).queryByText('Warned')).toBeNull();
    await userEvent.click(within(spammy).getByRole('button', { name: /^Warn User/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(confirm.textContent).toContain('This will send a warning to the user');
    const readsBefore = reads();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes, warn the user' }));

    expect(await screen.findByText('Warned! User has been warned')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(warnings).toEqual([{ path: '/api/admin/warn-user/ben%40forum.test', body: { commentId: 'c-1' } }]);
    // read again: the comment's reports stay open, and its row says it was warned about
    await waitFor(() => expect(reads()).toBeGreaterThan(readsBefore));
    await within(await rowOf(SPAMMY)).findByText('Warned');
    expect(within(await rowOf(SPAMMY)).queryByRole('button', { name: /^Warn User/ })).toBeNull();
    expect(dataRows()).toHaveLength(3);
    expect(screen.getByText('4 reports')).toBeTruthy();
  });

  it('#28.13 names each Delete and Warn User after its comment and author, as My Posts names Delete after the post', async () => {
    fakeServer();
    renderReports();
    const spammy = await rowOf(SPAMMY);
    within(spammy).getByRole('button', { name: 'Delete the comment by Ben Commenter: Buy cheap watches at...' });
    within(spammy).getByRole('button', { name: 'Warn User Ben Commenter about the comment: Buy cheap watches at...' });
    const rude = await rowOf(RUDE);
    within(rude).getByRole('button', { name: 'Delete the comment by Eve Writer: Nobody asked for you...' });
    within(rude).getByRole('button', { name: 'Warn User Eve Writer about the comment: Nobody asked for you...' });
    const names = screen.getAllByRole('button', { name: /^(Delete|Warn User)/ }).map((button) => button.getAttribute('aria-label'));
    expect(new Set(names).size).toBe(names.length);
  });

  it("says the server's message when a warning fails, else 'Failed to warn user'", async () => {
    quietHttpErrors();
    fakeServer(REPORTS, { warnAnswer: { status: 404, body: { error: { code: 'USER_NOT_FOUND', message: 'No such user' } } } });
    renderReports();
    await userEvent.click(within(await rowOf(RUDE)).getByRole('button', { name: /^Warn User/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, warn the user' }));
    expect(await screen.findByText('No such user')).toBeTruthy();
    cleanup();

    fakeServer(REPORTS, { warnAnswer: { status: 500 } });
    renderReports();
    await userEvent.click(within(await rowOf(RUDE)).getByRole('button', { name: /^Warn User/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, warn the user' }));
    expect(await screen.findByText('Failed to warn user')).toBeTruthy();
  });

  it('shows the empty state when nothing is reported, and after the last comment is deleted', async () => {
    fakeServer([]);
    renderReports();
    expect(await screen.findByText('No reported comments found')).toBeTruthy();
    expect(screen.getByText('When users report comments, they will appear here')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    cleanup();

    fakeServer([REPORTS[1]!]);
    renderReports();
    await userEvent.click(within(await rowOf(RUDE)).getByRole('button', { name: /^Delete/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, delete it!' }));
    expect(await screen.findByText('No reported comments found')).toBeTruthy();
  });

  it("shows the error's message with a Retry that reads the list again", async () => {
    quietHttpErrors();
    const { reads } = fakeServer(REPORTS, {
      listStatus: [{ status: 503, body: { error: { code: 'READ_SIDE_DOWN', message: 'The read side is not available' } } }, { status: 200 }],
    });
    renderReports();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The read side is not available');
    expect(screen.queryByRole('table')).toBeNull();
    const before = reads();
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await rowOf(SPAMMY)).toBeTruthy();
    expect(reads()).toBe(before + 1);
    expect(screen.queryByText('The read side is not available')).toBeNull();
  });

  it("says 'Failed to load reported comments' when the failure has no message", async () => {
    quietHttpErrors();
    fakeServer(REPORTS, { listStatus: [{ status: 500, text: '' }] });
    renderReports();
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load reported comments');
  });
});
