// @vitest-environment jsdom
import type { Snapshot } from '@forum/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { atPhoneWidth, renderConsole, respond, stubServer } from '../../testing/console';
import { SNAPSHOT_POLL_MS, SnapshotList } from './SnapshotList';

const snapshot = (name: string, extra: Partial<Snapshot> = {}): Snapshot => ({
  id: name,
  name,
  schema: `snapshot_${name}`,
  position: '812.1500',
  at: '2026-11-28T09:30:00.000Z',
  state: 'ready',
  built: 9,
  total: 9,
  current: null,
  percent: 100,
  bytes: 3 * 1024 * 1024,
  erasedSince: 0,
  requestedBy: 'operator:ops',
  createdAt: '2026-11-29T10:00:00.000Z',
  error: null,
  ...extra,
});

/** GET /api/admin/snapshots (react-admin's range protocol), answering each of `answers` in turn (the last one repeats). */
function fakeServer(...answers: Snapshot[][]) {
  const { calls } = stubServer(({ url, method }) => {
    if (method === 'GET' && url.pathname === '/api/admin/snapshots') {
      const snapshots = answers.length > 1 ? answers.shift()! : answers[0]!;
      return respond(snapshots, 200, { 'Content-Range': `snapshots 0-${Math.max(snapshots.length - 1, 0)}/${snapshots.length}` });
    }
    return respond({ error: { code: 'NOT_FOUND', message: 'No such route' } }, 404);
  });
  return { reads: () => calls.filter((c) => c === 'GET /api/admin/snapshots').length };
}

const renderSnapshots = () => renderConsole(<SnapshotList />, { path: '/admin/snapshots', resource: 'snapshots' });
const rowOf = async (name: string) => (await screen.findByText(name, { exact: true })).closest('tr')!;

describe('Snapshots', () => {
  it('lists each snapshot: its name and schema, its position and time, state, size, erasures since, who took it', async () => {
    fakeServer([
      snapshot('before_audit', { erasedSince: 2 }),
      snapshot('broken', { state: 'failed', built: 3, percent: 40, error: 'the log ends before 812.1500' }),
    ]);
    renderSnapshots();
    const ready = await rowOf('before_audit');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Snapshot', 'As of', 'State', 'Size', 'Erased since', 'Taken by', 'Error']);
    expect(within(ready).getByText('snapshot_before_audit')).toBeTruthy();
    expect(within(ready).getByText('812.1500')).toBeTruthy();
    expect(within(ready).getByText(new Date('2026-11-28T09:30:00.000Z').toLocaleString())).toBeTruthy();
    expect(within(ready).getByText('Ready')).toBeTruthy();
    expect(within(ready).getByText('3.0 MB')).toBeTruthy();
    expect(within(ready).getByText('2 accounts: drop it and take it again')).toBeTruthy();
    expect(within(ready).getByText('operator:ops')).toBeTruthy();
    const failed = await rowOf('broken');
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('the log ends before 812.1500')).toBeTruthy();
    expect(screen.getByText(/taken with/).textContent).toContain('forumctl snapshot <time|position>');
  });

  it('follows a snapshot being built, reading again every couple of seconds, until it is ready', { timeout: 20_000 }, async () => {
    const { reads } = fakeServer(
      [snapshot('nightly', { state: 'building', built: 2, current: 'users', percent: 50 })],
      [snapshot('nightly', { state: 'building', built: 6, current: 'audit', percent: 10 })],
      [snapshot('nightly')],
    );
    renderSnapshots();
    const progress = await screen.findByRole('progressbar', { name: 'Snapshot nightly' });
    expect(progress.getAttribute('aria-valuenow')).toBe(String(Math.round((2.5 * 100) / 9)));
    expect(screen.getByText('2 of 9 read models, users at 50%')).toBeTruthy();
    await screen.findByText('6 of 9 read models, audit at 10%', {}, { timeout: SNAPSHOT_POLL_MS * 3 });
    await screen.findByText('Ready', {}, { timeout: SNAPSHOT_POLL_MS * 3 });
    const readsWhenReady = reads();
    expect(readsWhenReady).toBe(3);
    // ready: no more reading
    await new Promise((resolve) => setTimeout(resolve, SNAPSHOT_POLL_MS + 500));
    expect(reads()).toBe(readsWhenReady);
  });

  it('says how to take one when there is none', async () => {
    fakeServer([]);
    renderSnapshots();
    expect(await screen.findByText(/No snapshots yet\. An operator takes one with/)).toBeTruthy();
  });

  it('shows each snapshot as a card on a phone', async () => {
    atPhoneWidth();
    fakeServer([snapshot('before_audit')]);
    renderSnapshots();
    const card = await screen.findByRole('article', { name: 'Snapshot before_audit' });
    await waitFor(() => expect(within(card).getByText('Ready')).toBeTruthy());
    expect(within(card).getByText('snapshot_before_audit')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
