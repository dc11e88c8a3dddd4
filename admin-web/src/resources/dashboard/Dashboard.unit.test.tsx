// @vitest-environment jsdom
import type { AdminStats } from '@forum/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { quietHttpErrors, renderConsole, respond, stubServer } from '../../testing/console';
import Dashboard from './Dashboard';

// the chart library draws with layout jsdom has not: what the chart is given is what is checked here
vi.mock('./StatsChart', () => ({
  default: ({ stats }: { stats: AdminStats['stats'] }) => <p>chart of {JSON.stringify(stats)}</p>,
}));

const STATS: AdminStats = {
  admin: { name: 'Ada Admin', email: 'ada@forum.test', photoURL: '', role: 'admin' },
  stats: { totalPosts: 1234, totalComments: 56, totalUsers: 7 },
};

/** GET /api/admin/stats (the answers in turn, the last repeating) and an empty GET /api/admin/tags. */
function fakeServer(answers: Array<{ status: number; body: unknown }>) {
  let reads = 0;
  stubServer(({ url }) => {
    if (url.pathname === '/api/admin/stats') {
      const answer = answers[Math.min(reads++, answers.length - 1)]!;
      return respond(answer.body, answer.status);
    }
    if (url.pathname === '/api/admin/tags') return respond([], 200, { 'Content-Range': 'tags */0' });
    return respond({ error: { code: 'NOT_FOUND', message: 'No such route' } }, 404);
  });
  return { reads: () => reads };
}

describe('Admin Profile (the dashboard)', () => {
  it('shows the admin card, the three totals and the chart of them, and Manage Tags', async () => {
    fakeServer([{ status: 200, body: STATS }]);
    renderConsole(<Dashboard />, { path: '/admin' });

    const card = await screen.findByRole('region', { name: 'Admin card' });
    expect(await within(card).findByRole('heading', { name: 'Ada Admin' })).toBeTruthy();
    expect(within(card).getByText('ada@forum.test')).toBeTruthy();
    expect(within(card).getByText('Admin')).toBeTruthy();
    // without a photo, the forum's one fallback: the name's first letter (#39 edge 17)
    expect(within(card).getByText('A', { exact: true }).closest('.MuiAvatar-root')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Total Posts' })).getByText('1,234')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Total Comments' })).getByText('56')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Total Users' })).getByText('7')).toBeTruthy();
    expect(await screen.findByText(`chart of ${JSON.stringify(STATS.stats)}`)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Admin Profile', level: 1 })).toBeTruthy();
    expect(await screen.findByText('No tags found. Add your first tag!')).toBeTruthy();
  });

  it('says the statistics failed to load, with a Retry that reads them again', async () => {
    quietHttpErrors();
    const down = { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'down' } } };
    const { reads } = fakeServer([down, down, { status: 200, body: STATS }]);
    renderConsole(<Dashboard />, { path: '/admin' });
    // a failed read is tried once more (a second later) before the page says so
    const alert = await screen.findByText('Failed to load statistics');
    const before = reads();
    await userEvent.click(within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Ada Admin' })).toBeTruthy();
    expect(reads()).toBe(before + 1);
    expect(screen.queryByText('Failed to load statistics')).toBeNull();
  });
});
