import type { PostDetail } from '@forum/contracts';
import { waitFor } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@forum/infra/embedded';
import { ADMIN_EMAIL, chromiumMissing, chromiumMissingMessage, DESKTOP, journeySteps, PHONE, setUpJourneys, signInAtRealm, snapshot } from './support.ts';

/**
 * A member erases themselves from the dashboard (docs/security/erasure.md):
 * My Profile's 'Delete my account', a dialog that says what happens, the choice for their posts
 * and comments, the word typed; then they are signed out, their post shows by 'Deleted user', the
 * realm no longer knows them and their old token is refused. An admin deletes another user from
 * Manage Users. axe-core finds nothing serious on the screens and dialogs; the member's dialog is
 * done by keyboard.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/erasure.e2e.test.ts'));

describe.skipIf(chromiumMissing)('a member erasing their account, in Chromium', () => {
  const journey = setUpJourneys('erasure');
  const { expectAccessible, tabTo, apiPost, signInAt, toast } = journeySteps(journey);

  it('deletes their account from My Profile, keeping their post by "Deleted user", and is signed out', { timeout: 120_000 }, async () => {
    const { forum, page } = journey;
    const gwen = await forum.newUser('Gwen Gone');
    const postId = await apiPost(gwen, 'Gwen on gulls');

    await signInAt(gwen, '/dashboard');
    await page.getByRole('heading', { name: 'My Profile', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Delete account' }).waitFor();
    await expectAccessible('my profile with Delete account');

    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByText('This cannot be undone.').waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete my account' });
    expect(await confirm.isDisabled()).toBe(true);
    await expectAccessible('the Delete account dialog');

    // by keyboard: 'Keep them' is chosen from the start (#39 edge 7), the word typed, the button reached with Tab
    const keep = dialog.getByRole('radio', { name: 'Keep them, shown as written by “Deleted user”' });
    expect(await keep.isChecked()).toBe(true);
    await tabTo(dialog.getByRole('textbox', { name: 'Type DELETE to confirm' }));
    await page.keyboard.type('DELETE');
    expect(await confirm.isEnabled()).toBe(true);
    await snapshot(page, 'erasure-dialog');
    await page.setViewportSize(PHONE);
    await snapshot(page, 'erasure-dialog-phone');
    await page.setViewportSize(DESKTOP);
    await tabTo(confirm);
    await page.keyboard.press('Enter');

    // signed out: back home, as a visitor, told what happened (#39 edge 8), not only that they signed out
    await page.waitForURL((url) => url.origin === forum.url && url.pathname === '/', { timeout: 30_000 });
    await page.getByRole('link', { name: 'Join Us' }).waitFor();
    await toast('Your account has been deleted.').waitFor();
    expect(await toast('Logout Successfully').count()).toBe(0);
    await snapshot(page, 'erasure-deleted-toast');
    await expectAccessible('home after the account was deleted');

    await page.goto(`${forum.url}/post/${postId}`);
    await page.getByRole('heading', { name: 'Gwen on gulls' }).waitFor();
    await page.getByText('Deleted user').first().waitFor();
    expect(await page.getByText('Gwen Gone').count()).toBe(0);

    const post = (await (await forum.api(`/api/posts/${postId}`)).json()) as PostDetail;
    expect(post).toMatchObject({ authorName: 'Deleted user', authorPhoto: '' });
    expect((await forum.api('/api/me', { token: gwen.token })).status).toBe(401);
    await waitFor(
      () => forum.realm!.accounts.findByEmail(gwen.email),
      (account) => account === null,
    );
  });

  it('an admin deletes a user from Manage Users, with their posts and comments', { timeout: 120_000 }, async () => {
    const { forum, page } = journey;
    const hal = await forum.newUser('Hal Removed');
    const postId = await apiPost(hal, 'Hal on herons');

    // first on a phone (a card per user, the menu closed): the dialog fits; cancelled
    await page.setViewportSize(PHONE);
    await page.goto(`${forum.url}/admin/manage-users`);
    await signInAtRealm(page, ADMIN_EMAIL, DEMO_PASSWORD);
    await page.waitForURL((url) => url.origin === forum.url && url.pathname === '/admin/manage-users');
    await page.getByRole('textbox', { name: 'Search users' }).fill('Hal Removed');
    const dialog = page.getByRole('dialog', { name: 'Delete Hal Removed?' });
    await page.getByRole('button', { name: 'Delete Hal Removed' }).click();
    await dialog.getByText('This cannot be undone.').waitFor();
    await snapshot(page, 'admin-erase-user-dialog-phone');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.setViewportSize(DESKTOP);

    const row = page.getByRole('row').filter({ hasText: hal.email });
    await row.getByRole('button', { name: 'Delete Hal Removed' }).click();
    await dialog.getByText('This cannot be undone.').waitFor();
    await dialog.getByRole('radio', { name: 'Delete them too' }).check();
    await expectAccessible('the Delete user dialog');
    await snapshot(page, 'admin-erase-user-dialog');
    await dialog.getByRole('button', { name: 'Delete user' }).click();
    await page.getByRole('alert').filter({ hasText: 'User deleted' }).waitFor();
    await row.waitFor({ state: 'detached' });

    expect((await forum.api(`/api/posts/${postId}`)).status).toBe(410);
    expect((await forum.api('/api/me', { token: hal.token })).status).toBe(401);
    await waitFor(
      () => forum.realm!.accounts.findByEmail(hal.email),
      (account) => account === null,
    );
  });
});
