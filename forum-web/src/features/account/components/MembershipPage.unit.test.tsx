// @vitest-environment jsdom
import type { AuthUser } from '@forum/web-auth';
import { MEMBERSHIP_PRICE } from '@forum/contracts';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';
import { currentPath, renderWithApp } from '../../../testing/render-with-app';
import { BOB, me } from '../testing/fixtures';
import { MembershipPage } from './MembershipPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderPage = (user: AuthUser | null = BOB) => renderWithApp(<MembershipPage />, { path: '/membership', user });

describe('Membership page', () => {
  it('offers the Gold Membership with its benefits and price to a free user', async () => {
    stubApi({ 'GET /api/me': () => ({ body: me(false) }) });
    renderPage();
    expect(screen.getByRole('heading', { name: 'Upgrade to Premium' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Gold Membership' })).toBeTruthy();
    expect(screen.getByText('Gold Badge')).toBeTruthy();
    for (const benefit of ['Unlimited posts (more than 5)', 'Priority support', 'Exclusive content access']) expect(screen.getByText(benefit)).toBeTruthy();
    expect(screen.getByText(MEMBERSHIP_PRICE.display)).toBeTruthy();
    expect(screen.getByText('one-time')).toBeTruthy();
    const button = await screen.findByRole('button', { name: 'Upgrade Now' });
    expect((button as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows Processing... while the payment runs, then Success! and goes to the dashboard', async () => {
    let pay!: () => void;
    const paid = new Promise<{ body: unknown }>((resolve) => (pay = () => resolve({ body: { id: 'user-bob', position: '10.1' } })));
    const { calls } = stubApi({ 'GET /api/me': () => ({ body: me(false) }), 'PATCH /api/users/membership/bob%40forum.local': () => paid });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Upgrade Now' }));

    const busy = await screen.findByRole('button', { name: 'Processing...' });
    // #39 edge 19: busy, not disabled: it keeps its colours (and a keyboard user's focus), and a second press sends nothing
    expect(busy.getAttribute('aria-disabled')).toBe('true');
    expect((busy as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(busy);
    expect(calls.filter((call) => call === 'PATCH /api/users/membership/bob%40forum.local')).toHaveLength(1);

    pay();
    const dialog = await screen.findByRole('dialog', { name: 'Success!' });
    expect(dialog.textContent).toContain('You are now a premium member with Gold badge!');
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
  });

  it('says Payment failed when the payment is refused, and stays on the page', async () => {
    stubApi({
      'GET /api/me': () => ({ body: me(false) }),
      'PATCH /api/users/membership/bob%40forum.local': () => ({ status: 402, body: { error: { code: 'PAYMENT_FAILED', message: 'Card declined' } } }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Upgrade Now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(dialog.textContent).toContain('Payment failed. Please try again.');
    expect(currentPath()).toBe('/membership');
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upgrade Now' })).toBeTruthy());
  });

  it('shows a member a disabled button and their benefits instead of the offer', async () => {
    stubApi({ 'GET /api/me': () => ({ body: me(true) }) });
    renderPage();
    const button = await screen.findByRole('button', { name: 'You are already a member' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('You are enjoying premium benefits!')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Upgrade Now' })).toBeNull();
  });

  it('tells a visitor who reaches the page to log in first', async () => {
    const { calls } = stubApi({});
    renderPage(null);
    await userEvent.click(screen.getByRole('button', { name: 'Upgrade Now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(dialog.textContent).toContain('You need to login first');
    expect(calls).toEqual([]);
  });
});
