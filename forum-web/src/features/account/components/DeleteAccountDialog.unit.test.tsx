// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { descriptionOf, stubApi } from '@forum/web-ui/testing';
import { renderWithApp } from '../../../testing/render-with-app';
import { BOB, profile } from '../testing/fixtures';
import { MyProfile } from './MyProfile';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** My Profile with the delete dialog open; `erase`: DELETE /api/me's answer. */
async function openDialog(erase: (request: Request) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>) {
  const { calls } = stubApi({ 'GET /api/user-profile/bob%40forum.local': () => ({ body: profile(false) }), 'DELETE /api/me': erase });
  const view = renderWithApp(<MyProfile />, { path: '/dashboard', user: BOB });
  await userEvent.click(await screen.findByRole('button', { name: 'Delete my account' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
  return { ...view, calls, dialog };
}

describe('Delete my account (My Profile)', () => {
  it('says what happens, and deletes only once the word is typed', async () => {
    const { dialog, calls, auth } = await openDialog(() => ({ body: { id: BOB.id, position: '90.4' } }));
    expect(dialog.textContent).toContain('Your name, email address and photo are erased from the forum');
    expect(dialog.textContent).toContain('This cannot be undone.');
    const confirm = within(dialog).getByRole('button', { name: 'Delete my account' });
    expect(confirm.hasAttribute('disabled')).toBe(true);

    const choice = within(dialog).getByRole('radiogroup', { name: 'Your posts and comments' });
    await userEvent.click(within(choice).getByRole('radio', { name: 'Keep them, shown as written by “Deleted user”' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Type DELETE to confirm' }), 'delete');
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Type DELETE to confirm' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Type DELETE to confirm' }), 'DELETE');
    expect(confirm.hasAttribute('disabled')).toBe(false);
    expect(calls).not.toContain('DELETE /api/me');
    await userEvent.click(confirm);
    // #39 edge 8: signed out as an erased account, so the page it comes back to says so
    await waitFor(() => expect(auth.logout).toHaveBeenCalledWith({ redirectUri: `${window.location.origin}/`, erased: true }));
    expect(calls).toContain('DELETE /api/me');
  });

  it('#39 edge 7: "Keep them" is chosen from the start, so the word typed is all the button waits for; a word mistyped says why', async () => {
    let sent: unknown;
    const { dialog, auth } = await openDialog(async (request) => {
      sent = await request.json();
      return { body: { id: BOB.id, position: '90.6' } };
    });
    const keep = within(dialog).getByRole<HTMLInputElement>('radio', { name: 'Keep them, shown as written by “Deleted user”' });
    expect(keep.checked).toBe(true);
    const confirm = within(dialog).getByRole('button', { name: 'Delete my account' });
    const word = within(dialog).getByRole('textbox', { name: 'Type DELETE to confirm' });
    await userEvent.type(word, 'delete');
    expect(confirm.hasAttribute('disabled')).toBe(true);
    expect(descriptionOf(word)).toBe('Type DELETE in capital letters');
    await userEvent.clear(word);
    await userEvent.type(word, 'DELETE');
    expect(confirm.hasAttribute('disabled')).toBe(false);
    await userEvent.click(confirm);
    await waitFor(() => expect(auth.logout).toHaveBeenCalled());
    expect(sent).toEqual({ content: 'keep' });
  });

  it('sends the choice to delete posts and comments too', async () => {
    let sent: unknown;
    const { dialog, auth } = await openDialog(async (request) => {
      sent = await request.json();
      return { body: { id: BOB.id, position: '90.5' } };
    });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Delete them too' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Type DELETE to confirm' }), 'DELETE');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(auth.logout).toHaveBeenCalled());
    expect(sent).toEqual({ content: 'erase' });
  });

  it("shows the server's message and stays signed in when the deletion fails; Cancel changes nothing", async () => {
    const { dialog, auth, calls } = await openDialog(() => ({
      status: 503,
      body: { error: { code: 'UNAVAILABLE', message: 'The forum is busy; try again.' } },
    }));
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Delete them too' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Type DELETE to confirm' }), 'DELETE');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('The forum is busy; try again.')).toBeTruthy();
    expect(auth.logout).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete your account?' })).toBeNull());
    expect(calls.filter((call) => call === 'DELETE /api/me')).toHaveLength(1);
  });
});
