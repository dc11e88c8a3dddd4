// @vitest-environment jsdom
import type { ProjectionStatus } from '@forum/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { atPhoneWidth, quietHttpErrors, renderConsole, respond, stubServer } from '../../testing/console';
import { ProjectionList } from './ProjectionList';
import { POLL_MS } from './rebuilds';

const build = (name: string, extra: Partial<ProjectionStatus> = {}): ProjectionStatus => ({
  name,
  version: 1,
  build: 1,
  schema: `${name}_v1`,
  state: 'live',
  role: 'live',
  checkpoint: '700.100',
  head: '100',
  lag: 0,
  error: null,
  failedPosition: null,
  requestedBy: null,
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-24T08:00:00.000Z',
  ...extra,
});

/**
 * The two services behind the page: GET /api/admin/projections (react-admin's range protocol, each
 * build keyed <name>-<build>) and POST …/:name/rebuild (202). After a rebuild the reads answer, in
 * turn, each of `afterRebuild` (the last one repeats): how the runner moves the new build along.
 */
function fakeServer(initial: ProjectionStatus[], afterRebuild: ProjectionStatus[][] = [], rebuildStatus = 202) {
  let builds = initial;
  const steps = [...afterRebuild];
  let rebuilt = false;
  const { calls } = stubServer(({ url, method }) => {
    if (method === 'GET' && url.pathname === '/api/admin/projections') {
      if (rebuilt && steps.length > 0) builds = steps.length > 1 ? steps.shift()! : steps[0]!;
      return respond(
        builds.map((b) => ({ id: `${b.name}-${b.build}`, ...b })),
        200,
        { 'Content-Range': `projections 0-${builds.length - 1}/${builds.length}` },
      );
    }
    const rebuild = /^\/api\/admin\/projections\/(.+)\/rebuild$/.exec(url.pathname);
    if (method === 'POST' && rebuild) {
      if (rebuildStatus !== 202)
        return respond({ error: { code: 'UNAVAILABLE', message: 'Projection control is not configured for this service' } }, rebuildStatus);
      rebuilt = true;
      const name = decodeURIComponent(rebuild[1]!);
      return respond(
        { success: true, resumed: false, projection: build(name, { build: 2, state: 'building', role: 'building', lag: 100, checkpoint: '0.0' }) },
        202,
      );
    }
    return respond({ error: { code: 'NOT_FOUND', message: 'No such route' } }, 404);
  });
  return { calls, reads: () => calls.filter((c) => c === 'GET /api/admin/projections').length };
}

const renderProjections = () => renderConsole(<ProjectionList />, { path: '/admin/projections', resource: 'projections' });
/** The row of a projection's build (by its version and build: a rebuild has two builds of it). */
const rowOf = async (name: string, buildNumber = 1) => {
  let row: HTMLTableRowElement | undefined;
  await waitFor(() => {
    row = screen
      .getAllByText(name, { exact: true })
      .map((cell) => cell.closest('tr')!)
      .find((tr) => within(tr).queryByText(`v1 · build ${buildNumber}`) !== null);
    expect(row).toBeTruthy();
  });
  return row!;
};

describe('Projections', () => {
  it("lists each build's name, version and build, state, checkpoint and lag, and a halted one's error", async () => {
    fakeServer([
      build('posts', { checkpoint: '812.15', head: '15' }),
      build('users', { state: 'halted', error: 'ProfileUpdated schemaVersion 99 is newer than this build reads', failedPosition: '905.77', lag: 3 }),
    ]);
    renderProjections();
    const posts = await rowOf('posts');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Projection', 'Version', 'State', 'Checkpoint', 'Lag', 'Error', 'Actions']);
    expect(within(posts).getByText('v1 · build 1')).toBeTruthy();
    expect(within(posts).getByText('Live')).toBeTruthy();
    expect(within(posts).getByText('812.15')).toBeTruthy();
    expect(within(posts).getByText('caught up')).toBeTruthy();
    expect(within(posts).getByRole('button', { name: 'Rebuild posts' })).toBeTruthy();

    const users = await rowOf('users');
    expect(within(users).getByText('Halted')).toBeTruthy();
    expect(within(users).getByText('3 events')).toBeTruthy();
    expect(within(users).getByText('ProfileUpdated schemaVersion 99 is newer than this build reads')).toBeTruthy();
    expect(within(users).getByText('at position 905.77')).toBeTruthy();
    // a halted projection is rebuilt to recover
    expect(within(users).getByRole('button', { name: 'Rebuild users' })).toBeTruthy();
  });

  it('rebuilds after the confirmation and follows the new build, reading every couple of seconds, until it is live', async () => {
    const tags = build('tags');
    const { calls, reads } = fakeServer(
      [build('posts'), tags],
      [
        [build('posts'), tags, build('tags', { build: 2, state: 'building', role: 'building', lag: 40, checkpoint: '0.60' })],
        [build('posts'), build('tags', { build: 2 })],
      ],
    );
    renderProjections();
    await userEvent.click(within(await rowOf('tags')).getByRole('button', { name: 'Rebuild tags' }));
    const confirm = await screen.findByRole('dialog', { name: 'Rebuild tags?' });
    expect(confirm.textContent).toContain('A new build of tags replays the whole event log beside the live one');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes, rebuild' }));

    expect(await screen.findByText('Rebuild of tags started')).toBeTruthy();
    expect(calls).toContain('POST /api/admin/projections/tags/rebuild');
    // the new build beside the live one, with how far it has come
    const progress = await screen.findByRole('progressbar', { name: 'Rebuild of tags' });
    expect(progress.getAttribute('aria-valuenow')).toBe('60');
    expect(screen.getByRole('status').textContent).toBe('Rebuilding tags: 60% of the log');
    expect(within(await rowOf('tags')).getByText('Rebuilding…')).toBeTruthy();
    expect(within(await rowOf('tags', 2)).getByText('Building')).toBeTruthy();

    // switched: one build of tags again, the new one
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('tags rebuilt: build 2 is live'));
    expect(screen.queryByRole('progressbar', { name: 'Rebuild of tags' })).toBeNull();
    const tagsRow = await rowOf('tags', 2);
    expect(within(tagsRow).getByText('v1 · build 2')).toBeTruthy();
    expect(within(tagsRow).getByRole('button', { name: 'Rebuild tags' })).toBeTruthy();

    // and the reading stops
    const readsWhenLive = reads();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS + 500));
    expect(reads()).toBe(readsWhenLive);
  });

  it('says so when the new build halts', async () => {
    const users = build('users');
    fakeServer(
      [users],
      [[users, build('users', { build: 2, role: 'building', state: 'halted', lag: 10, error: 'cannot read ProfileUpdated', failedPosition: '905.77' })]],
    );
    renderProjections();
    await userEvent.click(within(await rowOf('users')).getByRole('button', { name: 'Rebuild users' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, rebuild' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('The rebuild of users halted: cannot read ProfileUpdated'));
    expect(within(await rowOf('users')).getByRole('button', { name: 'Rebuild users' })).toBeTruthy();
  });

  it("asks nothing when the confirmation is cancelled, and shows the server's message when the rebuild is refused", async () => {
    quietHttpErrors();
    const { calls } = fakeServer([build('tags')], [], 503);
    renderProjections();
    await userEvent.click(within(await rowOf('tags')).getByRole('button', { name: 'Rebuild tags' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);

    await userEvent.click(within(await rowOf('tags')).getByRole('button', { name: 'Rebuild tags' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, rebuild' }));
    expect(await screen.findByText('Projection control is not configured for this service')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(await rowOf('tags')).getByRole('button', { name: 'Rebuild tags' })).toBeTruthy();
  });
});

describe('Projections on a phone', () => {
  it("shows each build as a card with its facts, a halted one's error, and its Rebuild button, which asks first", async () => {
    atPhoneWidth();
    fakeServer([
      build('posts', { checkpoint: '812.15' }),
      build('users', { state: 'halted', error: 'cannot read ProfileUpdated', failedPosition: '905.77', lag: 3 }),
    ]);
    renderProjections();
    const posts = await screen.findByRole('article', { name: 'posts, build 1' });
    expect(screen.queryByRole('table')).toBeNull();
    for (const label of ['Projection', 'Version', 'State', 'Checkpoint', 'Lag']) expect(within(posts).getByText(label)).toBeTruthy();
    expect(within(posts).getByText('v1 · build 1')).toBeTruthy();
    expect(within(posts).getByText('Live')).toBeTruthy();
    expect(within(posts).getByText('812.15')).toBeTruthy();
    expect(within(posts).getByText('caught up')).toBeTruthy();
    expect(within(posts).queryByText('Error')).toBeNull(); // no error, no line for it
    const users = screen.getByRole('article', { name: 'users, build 1' });
    expect(within(users).getByText('Halted')).toBeTruthy();
    expect(within(users).getByText('cannot read ProfileUpdated')).toBeTruthy();
    expect(within(users).getByText('at position 905.77')).toBeTruthy();
    expect(within(users).getByRole('button', { name: 'Rebuild users' })).toBeTruthy();

    await userEvent.click(within(posts).getByRole('button', { name: 'Rebuild posts' }));
    const confirm = await screen.findByRole('dialog', { name: 'Rebuild posts?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
