// @vitest-environment jsdom
import type { AdminUser } from '@forum/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { quietHttpErrors, renderConsole, respond, stubServer } from '../../testing/console';
import { UserList } from './UserList';

const user = (n: number, extra: Partial<AdminUser> = {}): AdminUser => ({
  _id: `u-${n}`,
  handle: null,
  name: `User ${String(n).padStart(2, '0')}`,
  email: `user${n}@forum.test`,
  photoURL: '',
  role: 'user',
  isMember: false,
  suspension: null,
  ...extra,
});

const ANN = user(1, { name: 'Ann Author', email: 'ann@forum.test', isMember: true });
const ADA = user(2, { name: 'Ada Admin', email: 'admin@forum.local', role: 'admin' });
const BEN = user(3, { name: 'Ben Basic', email: 'ben@forum.test' });
const MIA = user(4, { name: 'Mia Moderator', email: 'mia@forum.test', role: 'moderator' });
const SAM = user(5, { name: 'Sam Suspended', email: 'sam@forum.test', suspension: { reason: 'Spam links', until: null } });

/**
 * The query and command services behind the console: GET /api/admin/users (name or email
 * contains `q`, by name, the range asked for, Content-Range), PATCH …/make-admin/:id, erasure, and
 * issue #43's role and suspension commands (kept in `commands` with their bodies).
 */
function fakeServer(users: AdminUser[], { makeAdminStatus = 200, eraseStatus = 200 } = {}) {
  const reads: Array<{ range: [number, number]; q: string | undefined }> = [];
  const erased: Array<{ id: string; body: unknown }> = [];
  const commands: Array<{ call: string; body: unknown }> = [];
  const { calls } = stubServer(({ url, method, init }) => {
    if (method === 'GET' && url.pathname === '/api/admin/users') {
      const range = JSON.parse(url.searchParams.get('range')!) as [number, number];
      const q = (JSON.parse(url.searchParams.get('filter') ?? '{}') as { q?: string }).q;
      reads.push({ range, q });
      const found = users.filter((u) => !q || `${u.name} ${u.email}`.toLowerCase().includes(q.toLowerCase())).sort((a, b) => a.name.localeCompare(b.name));
      const page = found.slice(range[0], range[1] + 1);
      return respond(
        page.map((u) => ({ id: u._id, ...u })),
        200,
        { 'Content-Range': `users ${page.length ? `${range[0]}-${range[0] + page.length - 1}` : '*'}/${found.length}` },
      );
    }
    const makeAdmin = /^\/api\/admin\/users\/make-admin\/(.+)$/.exec(url.pathname);
    if (method === 'PATCH' && makeAdmin) {
      if (makeAdminStatus !== 200) return respond({ error: { code: 'INTERNAL', message: 'boom' } }, makeAdminStatus);
      const id = decodeURIComponent(makeAdmin[1]!);
      users = users.map((u) => (u._id === id ? { ...u, role: 'admin' } : u));
      return respond({ id, position: '70.1' }, 200, { 'X-Event-Position': '70.1' });
    }
    const erase = /^\/api\/admin\/users\/([^/]+)$/.exec(url.pathname);
    if (method === 'DELETE' && erase) {
      if (eraseStatus !== 200) return respond({ error: { code: 'CANNOT_ERASE_SELF', message: 'You cannot erase your own account here.' } }, eraseStatus);
      const id = decodeURIComponent(erase[1]!);
      erased.push({ id, body: JSON.parse(String(init.body)) });
      users = users.filter((u) => u._id !== id);
      return respond({ id, position: '71.1' }, 200, { 'X-Event-Position': '71.1' });
    }
    const staff = /^\/api\/admin\/users\/(?:([^/]+)\/moderator|([^/]+)\/(suspend|warnings))$/.exec(url.pathname);
    if (staff) {
      const id = decodeURIComponent(staff[1] ?? staff[2]!);
      commands.push({ call: `${method} ${url.pathname}`, body: init.body ? JSON.parse(init.body) : undefined });
      const change: Partial<AdminUser> =
        staff[1] !== undefined
          ? { role: method === 'PUT' ? 'moderator' : 'user' }
          : staff[3] === 'suspend'
            ? { suspension: method === 'POST' ? { reason: (JSON.parse(init.body) as { reason: string }).reason, until: null } : null }
            : {};
      users = users.map((u) => (u._id === id ? { ...u, ...change } : u));
      return respond({ id, position: '72.1' }, 200, { 'X-Event-Position': '72.1' });
    }
    return respond({ error: { code: 'NOT_FOUND', message: 'No such route' } }, 404);
  });
  return { calls, reads, erased, commands };
}

const renderUsers = (identity?: { id: string; fullName: string }, role: 'admin' | 'moderator' = 'admin') =>
  renderConsole(<UserList />, { path: '/admin/manage-users', resource: 'manage-users', identity, role });

// (by text: role queries over a whole table are slow in jsdom)
const rowOf = async (name: string) => (await screen.findByText(name, { exact: true })).closest('tr')!;

describe('Manage Users', () => {
  it('lists Name, Email, Role as a badge, Membership as Premium or Basic, and the actions', async () => {
    fakeServer([ANN, ADA, BEN]);
    renderUsers();
    const table = await screen.findByRole('table');
    await within(table).findByRole('cell', { name: 'Ann Author' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Email', 'Role', 'Membership', 'Suspension', 'Actions']);

    const ann = await rowOf('Ann Author');
    expect(within(ann).getByRole('cell', { name: 'ann@forum.test' })).toBeTruthy();
    expect(within(ann).getByText('Member')).toBeTruthy();
    expect(within(ann).getByText('Premium')).toBeTruthy();
    expect(within(ann).getByRole('button', { name: 'Make Admin' })).toBeTruthy();
    expect(within(ann).getByRole('link', { name: 'History of Ann Author' }).getAttribute('href')).toBe('/admin/history/user/u-1');

    const ben = await rowOf('Ben Basic');
    expect(within(ben).getByText('Basic')).toBeTruthy();
  });

  it('offers no Make Admin for an admin (there is no demotion either)', async () => {
    fakeServer([ANN, ADA]);
    renderUsers();
    const ada = await rowOf('Ada Admin');
    expect(within(ada).getByText('Admin')).toBeTruthy();
    expect(within(ada).queryByRole('button', { name: 'Make Admin' })).toBeNull();
    expect(within(ada).getByRole('link', { name: 'History of Ada Admin' })).toBeTruthy();
  });

  it('searches by name or email with the search box (filter q), from page 1', async () => {
    const { reads } = fakeServer([ANN, ADA, BEN]);
    renderUsers();
    await rowOf('Ben Basic');
    await userEvent.type(screen.getByRole('textbox', { name: 'Search users' }), 'forum.local');
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Ben Basic' })).toBeNull());
    expect(await rowOf('Ada Admin')).toBeTruthy();
    expect(screen.queryByRole('cell', { name: 'Ann Author' })).toBeNull();
    expect(reads.at(-1)).toEqual({ range: [0, 9], q: 'forum.local' });
  });

  it('makes a user admin after the confirmation, says so, and shows them as admin', async () => {
    const { calls } = fakeServer([ANN, BEN]);
    renderUsers();
    await userEvent.click(within(await rowOf('Ann Author')).getByRole('button', { name: 'Make Admin' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(confirm.textContent).toContain('This user will become an admin');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes, make admin' }));

    expect(await screen.findByText('User role updated to admin')).toBeTruthy();
    expect(calls).toContain('PATCH /api/admin/users/make-admin/u-1');
    await waitFor(async () => expect(within(await rowOf('Ann Author')).queryByRole('button', { name: 'Make Admin' })).toBeNull());
    expect(within(await rowOf('Ann Author')).getByText('Admin')).toBeTruthy();
    expect(within(await rowOf('Ben Basic')).getByRole('button', { name: 'Make Admin' })).toBeTruthy();
  });

  it('changes nothing when the confirmation is cancelled', async () => {
    const { calls } = fakeServer([ANN]);
    renderUsers();
    await userEvent.click(within(await rowOf('Ann Author')).getByRole('button', { name: 'Make Admin' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.startsWith('PATCH'))).toEqual([]);
  });

  it("says 'Failed to update user role' when the command fails, and the user stays a user", async () => {
    quietHttpErrors();
    fakeServer([ANN], { makeAdminStatus: 500 });
    renderUsers();
    await userEvent.click(within(await rowOf('Ann Author')).getByRole('button', { name: 'Make Admin' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, make admin' }));
    expect(await screen.findByText('Failed to update user role')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(await rowOf('Ann Author')).getByRole('button', { name: 'Make Admin' })).toBeTruthy();
  });

  it('pages 10 users at a time: previous, Page N, next; next is disabled once page × 10 reaches the total', async () => {
    const { reads } = fakeServer(Array.from({ length: 12 }, (_, i) => user(i + 1)));
    renderUsers();
    await rowOf('User 10');
    const pager = screen.getByRole('navigation', { name: 'Pages of users' });
    const previous = within(pager).getByRole<HTMLButtonElement>('button', { name: 'Previous' });
    const next = within(pager).getByRole<HTMLButtonElement>('button', { name: 'Next' });
    expect(within(pager).getByText('Page 1')).toBeTruthy();
    expect(previous.disabled).toBe(true);
    expect(next.disabled).toBe(false);
    expect(screen.queryByRole('cell', { name: 'User 11' })).toBeNull();

    await userEvent.click(next);
    await rowOf('User 12');
    expect(within(pager).getByText('Page 2')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(3); // the header and users 11, 12
    await waitFor(() => expect(next.disabled).toBe(true));
    expect(previous.disabled).toBe(false);
    expect(reads.at(-1)?.range).toEqual([10, 19]);

    await userEvent.click(previous);
    await rowOf('User 01');
    expect(within(pager).getByText('Page 1')).toBeTruthy();
  });

  it('disables next on the only page when exactly 10 users are found', async () => {
    fakeServer(Array.from({ length: 10 }, (_, i) => user(i + 1)));
    renderUsers();
    await rowOf('User 10');
    await waitFor(() => expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(true));
  });

  it('deletes a user after a dialog that says what happens and asks about their posts and comments; the list reads again', async () => {
    const { erased } = fakeServer([ANN, ADA, BEN]);
    renderUsers({ id: ADA._id, fullName: ADA.name });
    await userEvent.click(within(await rowOf('Ben Basic')).getByRole('button', { name: 'Delete Ben Basic' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Ben Basic?' });
    expect(dialog.textContent).toContain('their name, email address and photo are erased from the forum');
    expect(dialog.textContent).toContain('This cannot be undone.');
    const confirm = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Delete user' });
    expect(confirm.disabled).toBe(true);
    await userEvent.click(within(within(dialog).getByRole('radiogroup', { name: 'Their posts and comments' })).getByRole('radio', { name: 'Delete them too' }));
    await userEvent.click(confirm);
    expect(await screen.findByText('User deleted')).toBeTruthy();
    expect(erased).toEqual([{ id: BEN._id, body: { content: 'erase' } }]);
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Ben Basic' })).toBeNull());
  });

  it("offers no Delete on the admin's own row", async () => {
    fakeServer([ANN, ADA]);
    renderUsers({ id: ADA._id, fullName: ADA.name });
    await waitFor(async () => expect(within(await rowOf('Ann Author')).getByRole('button', { name: 'Delete Ann Author' })).toBeTruthy());
    expect(within(await rowOf('Ada Admin')).queryByRole('button', { name: 'Delete Ada Admin' })).toBeNull();
  });

  it("shows the server's message when the deletion is refused, and Cancel changes nothing", async () => {
    quietHttpErrors();
    const { calls } = fakeServer([ANN], { eraseStatus: 422 });
    renderUsers();
    await userEvent.click(within(await rowOf('Ann Author')).getByRole('button', { name: 'Delete Ann Author' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Ann Author?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);
    await userEvent.click(within(await rowOf('Ann Author')).getByRole('button', { name: 'Delete Ann Author' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Ann Author?' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Keep them, shown as written by “Deleted user”' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    expect(await screen.findByText('You cannot erase your own account here.')).toBeTruthy();
    expect(await rowOf('Ann Author')).toBeTruthy();
  });

  it('shows each role (Member, Moderator, Admin) and a suspension in force with its reason', async () => {
    fakeServer([ANN, ADA, MIA, SAM]);
    renderUsers();
    expect(within(await rowOf('Mia Moderator')).getByText('Moderator')).toBeTruthy();
    expect(within(await rowOf('Ada Admin')).getByText('Admin')).toBeTruthy();
    const sam = await rowOf('Sam Suspended');
    expect(within(sam).getByText('Suspended until lifted')).toBeTruthy();
    expect(within(sam).getByText('Spam links')).toBeTruthy();
    expect(within(await rowOf('Ann Author')).queryByText(/Suspended/)).toBeNull();
  });

  it('lets an admin make a member moderator and revoke it (no such button on an admin)', async () => {
    const { commands } = fakeServer([ANN, ADA, MIA]);
    renderUsers();
    // the buttons wait for the permissions, and after each command for the list read again
    const buttonOf = (row: string, name: string) => waitFor(async () => within(await rowOf(row)).getByRole('button', { name }));
    await userEvent.click(await buttonOf('Ann Author', 'Make moderator Ann Author'));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, make moderator' }));
    expect(await screen.findByText('User role updated to moderator')).toBeTruthy();
    await waitFor(async () => expect(within(await rowOf('Ann Author')).getByText('Moderator')).toBeTruthy());

    await userEvent.click(await buttonOf('Mia Moderator', 'Revoke moderator from Mia Moderator'));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, revoke' }));
    expect(await screen.findByText('Moderator role revoked')).toBeTruthy();
    expect(commands.map((command) => command.call)).toEqual(['PUT /api/admin/users/u-1/moderator', 'DELETE /api/admin/users/u-4/moderator']);
    expect(within(await rowOf('Ada Admin')).queryByRole('button', { name: /moderator/ })).toBeNull();
  });

  it('suspends a member for a week with a reason, then lifts it', async () => {
    const { commands } = fakeServer([ANN, ADA]);
    renderUsers({ id: ADA._id, fullName: ADA.name });
    await userEvent.click(within(await rowOf('Ann Author')).getByRole('button', { name: 'Suspend Ann Author' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend Ann Author?' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'A week' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Insults in three threads');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('Ann Author is suspended')).toBeTruthy();
    expect(commands).toEqual([{ call: 'POST /api/admin/users/u-1/suspend', body: { reason: 'Insults in three threads', period: 'week' } }]);

    const lift = await waitFor(async () => within(await rowOf('Ann Author')).getByRole('button', { name: 'Lift the suspension of Ann Author' }));
    await userEvent.click(lift);
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Lift suspension' }));
    expect(await screen.findByText('Suspension lifted')).toBeTruthy();
    expect(commands.at(-1)?.call).toBe('DELETE /api/admin/users/u-1/suspend');
  });

  it("shows a moderator no emails and none of the admins' buttons; Warn and Suspend on members only", async () => {
    const noEmails = [ANN, ADA, MIA, BEN].map(({ email: _email, ...rest }) => rest);
    const { commands } = fakeServer(noEmails);
    renderUsers({ id: MIA._id, fullName: MIA.name }, 'moderator');
    const table = await screen.findByRole('table');
    await within(table).findByRole('cell', { name: 'Ann Author' });
    // the permissions come in after the first rows
    await waitFor(() =>
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((cell) => cell.textContent),
      ).toEqual(['Name', 'Role', 'Membership', 'Suspension', 'Actions']),
    );
    const ann = await rowOf('Ann Author');
    expect(await within(ann).findByRole('button', { name: 'Warn Ann Author' })).toBeTruthy();
    expect(within(ann).getByRole('button', { name: 'Suspend Ann Author' })).toBeTruthy();
    for (const name of ['Make Admin', 'Make moderator Ann Author', 'Delete Ann Author']) expect(within(ann).queryByRole('button', { name })).toBeNull();
    // staff are protected from a moderator: no Warn or Suspend on an admin, another moderator or themselves
    for (const staff of ['Ada Admin', 'Mia Moderator']) expect(within(await rowOf(staff)).queryByRole('button', { name: /Warn|Suspend/ })).toBeNull();

    await userEvent.click(within(ann).getByRole('button', { name: 'Warn Ann Author' }));
    const dialog = await screen.findByRole('dialog', { name: 'Warn Ann Author?' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Keep it civil');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Warn' }));
    expect(await screen.findByText('Warned! User has been warned')).toBeTruthy();
    expect(commands).toEqual([{ call: 'POST /api/admin/users/u-1/warnings', body: { reason: 'Keep it civil' } }]);
  });
});
