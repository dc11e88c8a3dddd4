// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderConsole } from '../testing/console';
import { ConsoleLayout } from './ConsoleLayout';
import { PageTitle } from './PageTitle';

function Broken(): never {
  throw new Error('a page that fails');
}

describe('the console’s layout', () => {
  it('shows the app bar with the page’s title, the menu and the page', async () => {
    renderConsole(
      <ConsoleLayout>
        <PageTitle title="Admin Profile" />
        <p>the page</p>
      </ConsoleLayout>,
      { path: '/admin' },
    );
    expect(await screen.findByText('the page')).toBeTruthy();
    expect(within(screen.getByRole('banner')).getByText('Admin Profile')).toBeTruthy();
    expect(await screen.findByRole('menuitem', { name: 'Admin Profile' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Skip to content' })).toBeTruthy();
    // react-admin's app bar's buttons: the menu's toggle, refresh, the account menu
    const bar = within(screen.getByRole('banner'));
    expect(bar.getByRole('button', { name: 'Close menu' })).toBeTruthy();
    expect(bar.getByRole('button', { name: 'Refresh' })).toBeTruthy();
    expect(bar.getByRole('button', { name: 'Profile' })).toBeTruthy();
  });

  it('shows react-admin’s error page (loaded then) in the place of a page that fails, the menu still there', async () => {
    // React reports the error it caught: expected here
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderConsole(
      <ConsoleLayout>
        <Broken />
      </ConsoleLayout>,
      { path: '/admin' },
    );
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Something went wrong');
    expect(screen.getByRole('menuitem', { name: 'Admin Profile' })).toBeTruthy();
  });
});
