// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { ResourceDefinitionContextProvider } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { mayAccess } from '../permissions';
import { renderConsole } from '../testing/console';
import { ConsoleMenu } from './ConsoleMenu';

/** The console's resources as App.tsx registers them, with their menu labels. */
const DEFINITIONS = Object.fromEntries(
  [
    ['reports', 'Reports'],
    ['manage-users', 'Manage Users'],
    ['reported-comments', 'Reported Comments'],
    ['audit', 'Staff actions'],
    ['contact-messages', 'Contact messages'],
    ['projections', 'Projections'],
    ['snapshots', 'Snapshots'],
    ['posts', 'Posts'],
  ].map(([name, label]) => [name!, { name: name!, options: { label }, hasList: true }] as const),
);

const ADMIN_ONLY = ['Reported Comments', 'Make Announcement', 'Contact messages', 'Projections', 'Snapshots'];
const STAFF = ['Reports', 'Manage Users', 'Staff actions', 'Posts'];

async function menuOf(role: 'admin' | 'moderator') {
  renderConsole(
    <ResourceDefinitionContextProvider definitions={DEFINITIONS}>
      <ConsoleMenu />
    </ResourceDefinitionContextProvider>,
    { path: '/admin', role },
  );
  await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Reports' })).toBeTruthy());
  return screen.getAllByRole('menuitem').map((item) => item.textContent);
}

describe('who sees what in the console', () => {
  it('shows an admin every entry', async () => {
    const entries = await menuOf('admin');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Make Announcement' })).toBeTruthy());
    for (const entry of ['Admin Profile', ...STAFF, ...ADMIN_ONLY])
      expect(screen.getByRole('menuitem', { name: entry }), `${entry} in ${entries.join(', ')}`).toBeTruthy();
  });

  it('shows a moderator the staff entries and none of the admins’', async () => {
    await menuOf('moderator');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Home' })).toBeTruthy());
    expect(screen.queryByRole('menuitem', { name: 'Admin Profile' })).toBeNull();
    for (const entry of STAFF) expect(screen.getByRole('menuitem', { name: entry })).toBeTruthy();
    for (const entry of ADMIN_ONLY) expect(screen.queryByRole('menuitem', { name: entry })).toBeNull();
  });

  it('lets a moderator none of the admins’ actions', () => {
    const adminOnly: Array<[string, string]> = [
      ['manage-users', 'make-admin'],
      ['manage-users', 'grant-moderator'],
      ['manage-users', 'erase'],
      ['manage-users', 'email'],
      ['dashboard', 'stats'],
      ['announcements', 'create'],
      ['reported-comments', 'list'],
      ['projections', 'list'],
      ['snapshots', 'list'],
      ['contact-messages', 'list'],
      ['tags', 'list'],
    ];
    for (const [resource, action] of adminOnly) {
      expect(mayAccess('moderator', resource, action), `${resource} ${action}`).toBe(false);
      expect(mayAccess('admin', resource, action)).toBe(true);
    }
    for (const action of ['dismiss', 'hide', 'delete', 'warn', 'suspend']) expect(mayAccess('moderator', 'reports', action)).toBe(true);
    expect(mayAccess(null, 'reports', 'list')).toBe(false);
  });
});
