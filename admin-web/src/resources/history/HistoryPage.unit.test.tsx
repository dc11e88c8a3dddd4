// @vitest-environment jsdom
import type { History, HistoryStates } from '@forum/contracts';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { descriptionOf } from '@forum/web-ui/testing';
import { atPhoneWidth, quietHttpErrors, renderConsole, respond, stubServer } from '../../testing/console';
import { HistoryPage } from './HistoryPage';

const POST_ID = '6f1c2f9e-2b7a-4c1e-9a63-2f0f8d7c6b5a';
const LONG_DESCRIPTION = 'Why deploying on a Friday afternoon is fine when the pipeline is good. '.repeat(3).trim();

const POST_HISTORY: History = {
  kind: 'post',
  id: POST_ID,
  events: [
    {
      position: '812.15',
      streamId: `post-${POST_ID}`,
      version: 1,
      at: '2026-11-24T10:15:00.000Z',
      type: 'PostCreated',
      actor: 'u-ann',
      correlationId: 'corr-create',
      data: { postId: POST_ID, title: 'Deploying on Fridays', description: LONG_DESCRIPTION, tags: ['DevOps'], authorId: 'u-ann', authorName: 'Ann Author' },
    },
    {
      position: '901.40',
      streamId: `post-${POST_ID}`,
      version: 2,
      at: '2026-11-25T08:00:00.000Z',
      type: 'PostDeleted',
      actor: 'u-ada',
      correlationId: 'corr-delete',
      data: { postId: POST_ID, authorId: 'u-ann', deletedBy: 'u-ada', deletedAt: '2026-11-25T08:00:00.000Z' },
    },
    {
      position: '950.2',
      streamId: `post-${POST_ID}`,
      version: 3,
      at: '2026-11-26T08:00:00.000Z',
      type: 'PostRestored',
      actor: '0b7e9a52-1c1e-4d4f-9d57-5a2f3c8e9b10',
      correlationId: '3f0c1d7e-88aa-4b0e-a1f4-6c2b9d0e7a55',
      data: { postId: POST_ID },
    },
  ],
  // the forum's names of the actors it knows (Ann's comes from the post's own event)
  actors: { 'u-ada': { name: 'Ada Admin', email: 'admin@forum.local' } },
  nextAfter: null,
};

/** GET /api/admin/history/:kind/:id answered with `history` (and …/states with `states`, when given), or with `status` and its error. */
function fakeServer(answer: {
  history?: History;
  /** `failing`: the server fails to fold them (500); none given: no state of any event. */
  states?: HistoryStates | 'failing';
  status?: number;
  code?: string;
  message?: string;
  details?: unknown;
}) {
  const calls: string[] = [];
  stubServer(({ url }) => {
    calls.push(url.pathname);
    if (url.pathname.endsWith('/states') && answer.history) {
      if (answer.states === 'failing') return respond({ error: { code: 'INTERNAL', message: 'Something went wrong' } }, 500);
      return respond(answer.states ?? { kind: answer.history.kind, id: answer.history.id, states: [] });
    }
    if (answer.history) return respond(answer.history);
    return respond({ error: { code: answer.code ?? 'NOT_FOUND', message: answer.message ?? 'No such post', details: answer.details } }, answer.status ?? 404);
  });
  return { calls };
}

/** The calls for the pages of events (each page's states are asked for beside it). */
const historyCalls = (calls: readonly string[]) => calls.filter((call) => !call.includes('/states'));

const renderHistory = (path: string) =>
  renderConsole(
    <Routes>
      <Route path="/admin/history/:kind/:id" element={<HistoryPage />} />
    </Routes>,
    { path },
  );

describe('the history of a post or a user', () => {
  it("shows a post's events oldest first: number, time, type, actor, position and correlation id, named after its title", async () => {
    const { calls } = fakeServer({ history: POST_HISTORY });
    renderHistory(`/admin/history/post/${POST_ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'History of the post “Deploying on Fridays”' })).toBeTruthy();
    expect(calls).toEqual([`/api/admin/history/post/${POST_ID}`, `/api/admin/history/post/${POST_ID}/states`]);
    expect(screen.getByText(/The post with its comments, votes and reports: 3 events, oldest first/)).toBeTruthy();
    const viewPost = screen.getByRole('link', { name: 'View Post' });
    expect(viewPost.getAttribute('href')).toBe(`/post/${POST_ID}`);
    // #39 edge 13: a new tab, as its icon says (and its description)
    expect(viewPost.getAttribute('target')).toBe('_blank');
    expect(viewPost.getAttribute('rel')).toBe('noopener noreferrer');
    expect(descriptionOf(viewPost)).toBe('opens in a new tab');

    const table = screen.getByRole('table', { name: 'Events of the post “Deploying on Fridays”' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['#', 'Time', 'Event (stream)', 'Changes', 'Actor', 'Position', 'Correlation id', 'Data']);
    const [, created, deleted, restored] = within(table).getAllByRole('row');
    expect(
      within(created!)
        .getAllByRole('cell')
        .slice(0, 1)
        .map((c) => c.textContent),
    ).toEqual(['1']);
    expect(within(created!).getByText('PostCreated')).toBeTruthy();
    expect(within(created!).getByText('post #1').getAttribute('title')).toBe(`post-${POST_ID}`);
    expect(within(created!).getByText('812.15')).toBeTruthy();
    expect(within(created!).getByText('corr-create')).toBeTruthy();
    expect(within(created!).getByText(new Date('2026-11-24T10:15:00.000Z').toLocaleString())).toBeTruthy();
    // the author's name from the post's own event, linked to their history
    expect(within(created!).getByRole('link', { name: 'Ann Author' }).getAttribute('href')).toBe('/admin/history/user/u-ann');
    expect(within(deleted!).getByText('PostDeleted')).toBeTruthy();
    expect(within(deleted!).getByRole('link', { name: 'Ada Admin' }).getAttribute('href')).toBe('/admin/history/user/u-ada');
    // an actor the forum does not name: the start of their id (all of it on hover), as the correlation id
    const unknown = within(restored!).getByRole('link', { name: '0b7e9a52…' });
    expect(unknown.getAttribute('href')).toBe('/admin/history/user/0b7e9a52-1c1e-4d4f-9d57-5a2f3c8e9b10');
    expect(unknown.getAttribute('title')).toBe('0b7e9a52-1c1e-4d4f-9d57-5a2f3c8e9b10');
    expect(within(restored!).getByText('3f0c1d7e…').getAttribute('title')).toBe('3f0c1d7e-88aa-4b0e-a1f4-6c2b9d0e7a55');
  });

  it('#41: names an edited post after its latest title, its edits among its events', async () => {
    const [created, ...rest] = POST_HISTORY.events;
    const edit = (version: number, title: string, editorId: string) => ({
      ...created!,
      position: `${820 + version}.1`,
      version,
      type: 'PostEdited',
      actor: editorId,
      correlationId: `corr-edit-${version}`,
      data: { postId: POST_ID, authorId: 'u-ann', editorId, title, description: 'Edited', tags: [], revision: version, editedAt: created!.at },
    });
    fakeServer({
      history: { ...POST_HISTORY, events: [created!, edit(2, 'Deploying on Fridays, revisited', 'u-ann'), edit(3, 'Deploying on Fridays?', 'u-ada'), ...rest] },
    });
    renderHistory(`/admin/history/post/${POST_ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'History of the post “Deploying on Fridays?”' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Events of the post “Deploying on Fridays?”' });
    expect(within(table).getAllByText('PostEdited')).toHaveLength(2);
  });

  it("shows each event's data on one line, and in full when opened", async () => {
    fakeServer({ history: POST_HISTORY });
    renderHistory(`/admin/history/post/${POST_ID}`);
    const show = await screen.findByRole('button', { name: 'Show data of event 1, PostCreated' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    // shortened on the line: the long description is not all there
    expect(screen.queryByText(LONG_DESCRIPTION, { exact: false })).toBeNull();

    await userEvent.click(show);
    const hide = screen.getByRole('button', { name: 'Hide data of event 1, PostCreated' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    const data = document.getElementById(hide.getAttribute('aria-controls')!)!;
    expect(JSON.parse(within(data).getByLabelText('Data of event 1, PostCreated').textContent)).toEqual(POST_HISTORY.events[0]!.data);
    expect(data.textContent).toContain('correlation id corr-create · position 812.15');
    // the other event stays closed
    expect(screen.getByRole('button', { name: 'Show data of event 2, PostDeleted' }).getAttribute('aria-expanded')).toBe('false');

    await userEvent.click(hide);
    expect(screen.getByRole('button', { name: 'Show data of event 1, PostCreated' })).toBeTruthy();
    expect(document.getElementById(data.id)).toBeNull();
  });

  it("names a user's history after them, and their own actions as theirs", async () => {
    fakeServer({
      history: {
        kind: 'user',
        id: 'u-ann',
        events: [
          {
            position: '10.3',
            streamId: 'user-u-ann',
            version: 1,
            at: '2026-11-20T08:00:00.000Z',
            type: 'UserRegistered',
            actor: 'u-ann',
            correlationId: 'c-1',
            data: { userId: 'u-ann', name: 'Ann', email: 'ann@forum.test' },
          },
          {
            position: '11.4',
            streamId: 'user-u-ann',
            version: 2,
            at: '2026-11-21T08:00:00.000Z',
            type: 'ProfileUpdated',
            actor: 'u-ann',
            correlationId: 'c-2',
            data: { userId: 'u-ann', changes: { name: 'Ann Author' } },
          },
          {
            position: '12.9',
            streamId: 'user-u-ann',
            version: 3,
            at: '2026-11-22T08:00:00.000Z',
            type: 'AdminRoleGranted',
            actor: 'operator:root',
            correlationId: 'c-3',
            data: { userId: 'u-ann', reason: 'operator' },
          },
        ],
        actors: { 'u-ann': { name: 'Ann Author', email: 'ann@forum.test' } },
        nextAfter: null,
      },
    });
    renderHistory('/admin/history/user/u-ann');
    expect(await screen.findByRole('heading', { level: 1, name: 'History of Ann Author' })).toBeTruthy();
    expect(screen.getAllByText('Ann Author (this user)')).toHaveLength(2);
    expect(screen.getByText('operator:root')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'operator:root' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'View Post' })).toBeNull();
  });

  it("shows a long history a page at a time: 'Show more events' asks for the events after the last one shown", async () => {
    const [first, second, third] = POST_HISTORY.events;
    const calls: string[] = [];
    stubServer(({ url }) => {
      calls.push(`${url.pathname}${url.search}`);
      const after = url.searchParams.get('after');
      return respond(
        after === null
          ? { ...POST_HISTORY, events: [first!, second!], nextAfter: second!.position }
          : { ...POST_HISTORY, events: [third!], actors: {}, nextAfter: null },
      );
    });
    renderHistory(`/admin/history/post/${POST_ID}`);
    const table = await screen.findByRole('table', { name: 'Events of the post “Deploying on Fridays”' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 2);
    screen.getByText(/the first 2 events, oldest first/);
    await userEvent.click(screen.getByRole('button', { name: 'Show more events' }));
    await within(table).findByText('PostRestored');
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 3);
    expect(historyCalls(calls)).toEqual([`/api/admin/history/post/${POST_ID}`, `/api/admin/history/post/${POST_ID}?after=901.40`]);
    expect(screen.queryByRole('button', { name: 'Show more events' })).toBeNull();
    screen.getByText(/3 events, oldest first/);
    // the first page's actors still name their events
    expect(within(table).getAllByRole('link', { name: 'Ada Admin' }).length).toBeGreaterThan(0);
  });

  it('#28.3 shows a user’s history across their streams: what they did anywhere, what was done about them, page after page', async () => {
    const MEMBER = 'u-mia';
    const OTHERS_POST = '2b9d7c1e-6a5f-4e3d-8c2b-1a0f9e8d7c6b';
    const COMMENT = '5e4d3c2b-1a09-4f8e-a7d6-c5b4a3928170';
    const event = (position: string, streamId: string, version: number, type: string, actor: string, data: Record<string, unknown>) => ({
      position,
      streamId,
      version,
      at: '2026-11-27T09:00:00.000Z',
      type,
      actor,
      correlationId: `corr-${position}`,
      data,
    });
    const pages: History[] = [
      {
        kind: 'user',
        id: MEMBER,
        events: [
          event('20.1', `user-${MEMBER}`, 1, 'UserRegistered', MEMBER, { userId: MEMBER, name: 'Mia Member', email: 'mia@forum.test' }),
          event('21.2', `user-${MEMBER}`, 3, 'MembershipPurchased', MEMBER, { userId: MEMBER }),
          event('22.5', `post-${POST_ID}`, 1, 'PostCreated', MEMBER, { postId: POST_ID, title: 'Paid post', authorId: MEMBER }),
          event('23.1', `comment-${COMMENT}`, 1, 'CommentAdded', MEMBER, { commentId: COMMENT, postId: OTHERS_POST, text: 'Nice' }),
        ],
        actors: { [MEMBER]: { name: 'Mia Member', email: 'mia@forum.test' } },
        nextAfter: '23.1',
      },
      {
        kind: 'user',
        id: MEMBER,
        events: [
          event('24.3', `vote-${OTHERS_POST}-${MEMBER}`, 1, 'VoteCast', MEMBER, { postId: OTHERS_POST, userId: MEMBER, vote: 'up' }),
          event('25.4', `report-${COMMENT}-${MEMBER}`, 1, 'CommentReported', MEMBER, { commentId: COMMENT, postId: OTHERS_POST }),
          event('26.9', `notifications-${MEMBER}`, 1, 'UserWarned', 'u-ada', { userId: MEMBER, reason: 'Be kind' }),
          event('27.2', `user-${MEMBER}`, 4, 'AdminRoleGranted', 'u-ada', { userId: MEMBER, reason: 'admin' }),
        ],
        actors: { 'u-ada': { name: 'Ada Admin', email: 'admin@forum.local' } },
        nextAfter: null,
      },
    ];
    const calls: string[] = [];
    stubServer(({ url }) => {
      calls.push(`${url.pathname}${url.search}`);
      return respond(url.searchParams.get('after') === '23.1' ? pages[1]! : pages[0]!);
    });
    renderHistory(`/admin/history/user/${MEMBER}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'History of Mia Member' })).toBeTruthy();
    screen.getByText(/What they did and what was done about them: the first 4 events, oldest first/);
    await userEvent.click(screen.getByRole('button', { name: 'Show more events' }));
    const table = screen.getByRole('table', { name: 'Events of Mia Member' });
    await within(table).findByText('AdminRoleGranted');
    expect(historyCalls(calls)).toEqual([`/api/admin/history/user/${MEMBER}`, `/api/admin/history/user/${MEMBER}?after=23.1`]);
    screen.getByText(/What they did and what was done about them: 8 events, oldest first/);
    // numbered through the history, each with its stream, in the order the server gave
    const rows = within(table).getAllByRole('row').slice(1);
    const numberTypeStream = (row: HTMLElement) => {
      const [n, , event] = within(row).getAllByRole('cell');
      return [n!.textContent, within(event!).getByText(/^[A-Za-z]+$/).textContent, within(event!).getByTitle(/-/).textContent];
    };
    expect(rows.map(numberTypeStream)).toEqual([
      ['1', 'UserRegistered', 'user #1'],
      ['2', 'MembershipPurchased', 'user #3'],
      ['3', 'PostCreated', 'post #1'],
      ['4', 'CommentAdded', 'comment #1'],
      ['5', 'VoteCast', 'vote #1'],
      ['6', 'CommentReported', 'report #1'],
      ['7', 'UserWarned', 'notifications #1'],
      ['8', 'AdminRoleGranted', 'user #4'],
    ]);
    expect(within(rows[4]!).getByText('vote #1').getAttribute('title')).toBe(`vote-${OTHERS_POST}-${MEMBER}`);
    // their own doing as theirs; what an admin did about them, by the admin's name (from the later page)
    expect(within(rows[5]!).getByText('Mia Member (this user)')).toBeTruthy();
    expect(within(rows[6]!).getByRole('link', { name: 'Ada Admin' }).getAttribute('href')).toBe('/admin/history/user/u-ada');
    // the data of an event of another stream says which stream and which of its events it is
    await userEvent.click(within(rows[4]!).getByRole('button', { name: 'Show data of event 5, VoteCast' }));
    expect(screen.getByText(new RegExp(`stream vote-${OTHERS_POST}-${MEMBER}, event 1 · actor ${MEMBER}`))).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more events' })).toBeNull();
  });

  it("says when there is no such post (404), and what is wrong with a bad id (400's field messages)", async () => {
    quietHttpErrors();
    fakeServer({ status: 404 });
    renderHistory(`/admin/history/post/${POST_ID}`);
    expect(await screen.findByText(`No history: there is no post with the id ${POST_ID}.`)).toBeTruthy();
    cleanup();

    fakeServer({ status: 400, code: 'VALIDATION_FAILED', message: 'The request is not valid', details: { id: ['Not a post id'] } });
    renderHistory('/admin/history/post/not-a-post');
    expect(await screen.findByText('Not a post id')).toBeTruthy();
  });

  it('asks nothing for a kind that has no history', async () => {
    const { calls } = fakeServer({ history: POST_HISTORY });
    renderHistory('/admin/history/comment/c-1');
    expect(await screen.findByText('Only users and posts have a history here.')).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

/** The states the server folds for POST_HISTORY: created, deleted, then an event that changes nothing of the post. */
const POST_STATES: HistoryStates = {
  kind: 'post',
  id: POST_ID,
  states: [
    {
      position: '812.15',
      state: { status: 'created', authorId: 'u-ann', title: 'Deploying on Fridays', tags: ['DevOps'] },
      changes: [
        { change: 'changed', path: 'status', before: 'none', after: 'created' },
        { change: 'added', path: 'authorId', after: 'u-ann' },
        { change: 'added', path: 'title', after: 'Deploying on Fridays' },
        { change: 'added', path: 'tags', after: ['DevOps'] },
      ],
    },
    {
      position: '901.40',
      state: { status: 'deleted', authorId: 'u-ann' },
      changes: [
        { change: 'changed', path: 'status', before: 'created', after: 'deleted' },
        { change: 'removed', path: 'title', before: 'Deploying on Fridays' },
        { change: 'removed', path: 'tags', before: ['DevOps'] },
      ],
    },
    { position: '950.2', state: { status: 'deleted', authorId: 'u-ann' }, changes: [] },
  ],
};

describe('the state after each event', () => {
  it('shows what each event changed in the post, at most three fields on its row, and the whole state after it when opened', async () => {
    const { calls } = fakeServer({ history: POST_HISTORY, states: POST_STATES });
    renderHistory(`/admin/history/post/${POST_ID}`);
    const table = await screen.findByRole('table', { name: 'Events of the post “Deploying on Fridays”' });
    const changes = await within(table).findByRole('list', { name: 'Changes by event 1' });
    expect(
      within(changes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['~status: "none" → "created"', '+added authorId: "u-ann"', '+added title: "Deploying on Fridays"', 'and 1 more']);
    const [, , deleted, restored] = within(table).getAllByRole('row');
    expect(within(within(deleted!).getByRole('list', { name: 'Changes by event 2' })).getAllByRole('listitem')[1]!.textContent).toBe(
      '−removed title (was "Deploying on Fridays")',
    );
    expect(within(restored!).getByText('No change to the post')).toBeTruthy();
    expect(calls).toEqual([`/api/admin/history/post/${POST_ID}`, `/api/admin/history/post/${POST_ID}/states`]);

    // by keyboard: the event's data, its every change and the state after it
    const show = screen.getByRole('button', { name: 'Show data of event 2, PostDeleted' });
    show.focus();
    await userEvent.keyboard('{Enter}');
    const opened = document.getElementById(screen.getByRole('button', { name: 'Hide data of event 2, PostDeleted' }).getAttribute('aria-controls')!)!;
    expect(within(opened).getByRole('heading', { name: 'The post’s state after event 2' })).toBeTruthy();
    expect(JSON.parse(within(opened).getByLabelText('State of the post after event 2, PostDeleted').textContent)).toEqual(POST_STATES.states[1]!.state);
    expect(within(within(opened).getByRole('list', { name: 'Changes by event 2' })).getAllByRole('listitem')).toHaveLength(3);
  });

  it('shows the events when their states cannot be read, and says so where a state would be', async () => {
    quietHttpErrors();
    fakeServer({ history: POST_HISTORY, states: 'failing' });
    renderHistory(`/admin/history/post/${POST_ID}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Show data of event 1, PostCreated' }));
    expect(screen.getByText('The state of the post after this event could not be loaded.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Changes by event 1' })).toBeNull();
  });

  it('shows the changes on a phone card too', async () => {
    atPhoneWidth();
    fakeServer({ history: POST_HISTORY, states: POST_STATES });
    renderHistory(`/admin/history/post/${POST_ID}`);
    const card = await screen.findByRole('article', { name: 'Event 2, PostDeleted' });
    expect(await within(card).findByRole('list', { name: 'Changes by event 2' })).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Event 3, PostRestored' })).getByText('No change to the post')).toBeTruthy();
  });
});

describe('a history on a phone', () => {
  it('shows each event as a card: number, type, time, actor, position and correlation id, its data a click away', async () => {
    atPhoneWidth();
    fakeServer({ history: POST_HISTORY });
    renderHistory(`/admin/history/post/${POST_ID}`);
    const events = await screen.findByRole('list', { name: 'Events of the post “Deploying on Fridays”' });
    expect(screen.queryByRole('table')).toBeNull();
    expect(
      within(events)
        .getAllByRole('article')
        .map((card) => card.getAttribute('aria-label')),
    ).toEqual(['Event 1, PostCreated', 'Event 2, PostDeleted', 'Event 3, PostRestored']);
    const created = screen.getByRole('article', { name: 'Event 1, PostCreated' });
    expect(within(created).getByText('#1')).toBeTruthy();
    expect(within(created).getByText(new Date('2026-11-24T10:15:00.000Z').toLocaleString())).toBeTruthy();
    expect(within(created).getByRole('link', { name: 'Ann Author' }).getAttribute('href')).toBe('/admin/history/user/u-ann');
    expect(within(created).getByText('812.15')).toBeTruthy();
    expect(within(created).getByText('corr-create')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Event 2, PostDeleted' })).getByRole('link', { name: 'Ada Admin' })).toBeTruthy();

    await userEvent.click(within(created).getByRole('button', { name: 'Show data of event 1, PostCreated' }));
    expect(JSON.parse(within(created).getByLabelText('Data of event 1, PostCreated').textContent)).toEqual(POST_HISTORY.events[0]!.data);
    await userEvent.click(within(created).getByRole('button', { name: 'Hide data of event 1, PostCreated' }));
    expect(within(created).queryByLabelText('Data of event 1, PostCreated')).toBeNull();
  });
});
