import type { Notifications } from '@forum/contracts';
import { DEMO_PASSWORD } from '@forum/infra/embedded';
import type { NewUser, TestForum } from '@forum/infra/testing';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  chromiumMissing,
  chromiumMissingMessage,
  DESKTOP,
  journeySteps,
  PHONE,
  seriousA11yViolations,
  setUpJourneys,
  signInAtRealm,
  snapshot,
} from './support.ts';

/**
 * The moderators' journey through admin-web (/admin), in Debian's Chromium, against the whole
 * product on a free port: the demo admin signs in on the realm's page, finds a user with the
 * search box and makes them admin, then settles a comment two members reported: warns its author
 * (who finds the warning among their notifications) and deletes it, which empties the list.
 * axe-core finds no serious or critical violation on any screen; Make Admin is done by keyboard.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/admin-moderation.e2e.test.ts'));

describe.skipIf(chromiumMissing)('moderators in the admin console, in Chromium', () => {
  const journey = setUpJourneys('admin-moderation');
  const { expectAccessible, tabTo, readModelsReach, toast } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  /** A command through the API with the member's token; its answer once accepted. */
  async function command(member: NewUser, path: string, json: unknown): Promise<{ id: string; position: string }> {
    const response = await forum.api(path, { method: 'POST', token: member.token, json });
    expect(response.status, `POST ${path}`).toBe(201);
    return (await response.json()) as { id: string; position: string };
  }

  it('makes a found user admin, then warns the author of a comment reported twice and deletes it', { timeout: 120_000 }, async () => {
    // ── the forum's side, through the API: Ann's post, Ben's comment on it, reported by Cara and Dan
    const [ann, ben, cara, dan] = await Promise.all(['Ann Moderated', 'Ben Commenter', 'Cara Reporter', 'Dan Reporter'].map((name) => forum.newUser(name)));
    const post = await command(ann!, '/api/posts', {
      title: 'Deploying on Fridays',
      description: 'Is it ever a good idea to deploy on a Friday afternoon?',
      tags: ['Career'],
    });
    const text = 'Only cowards test before deploying. Buy my course at cheap-deploys.example!';
    const comment = await command(ben!, '/api/comments', { postId: post.id, text });
    await command(cara!, `/api/comments/${comment.id}/report`, { feedback: 'spam' });
    const lastReport = await command(dan!, `/api/comments/${comment.id}/report`, { feedback: 'offensive' });
    await readModelsReach(lastReport.position);

    // ── the console asks for the realm's sign-in and comes back to Manage Users
    await page.goto(`${forum.url}/admin/manage-users`);
    await signInAtRealm(page, ADMIN_EMAIL, DEMO_PASSWORD);
    await page.waitForURL((url) => url.origin === forum.url && url.pathname === '/admin/manage-users');

    // ── Manage Users: Ann found with the search box, made admin by keyboard alone
    const search = page.getByRole('textbox', { name: 'Search users' });
    // (Ann is on the first page before the search too: the list is the search's once its answer is in)
    const searched = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/admin/users' && new URL(response.url()).searchParams.get('filter') === JSON.stringify({ q: 'Ann Moder' }),
    );
    await search.fill('Ann Moder');
    await searched;
    const annRow = page.getByRole('row').filter({ hasText: ann!.email });
    await annRow.waitFor();
    await expect.poll(() => page.getByRole('row').count(), { timeout: 5_000 }).toBe(2); // the header and Ann
    expect(await annRow.getByText('Basic', { exact: true }).count()).toBe(1);
    await page.getByText('Page 1', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await expectAccessible('manage users, searched');
    await snapshot(page, 'admin-manage-users-search');

    await search.focus();
    const makeAdmin = annRow.getByRole('button', { name: 'Make Admin' });
    await tabTo(makeAdmin);
    await page.keyboard.press('Enter');
    const confirmAdmin = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirmAdmin.getByText('This user will become an admin').waitFor();
    await expectAccessible('make admin confirmation');
    await snapshot(page, 'admin-make-admin-confirm');
    // the confirmation's own button has the focus: Enter confirms
    await page.keyboard.press('Enter');
    await toast('User role updated to admin').waitFor();
    await annRow.getByText('Admin', { exact: true }).waitFor();
    expect(await makeAdmin.count()).toBe(0);
    await snapshot(page, 'admin-made-admin');

    // ── Reported Comments: one row for the comment, both reporters beside it
    await page.getByRole('menuitem', { name: 'Reported Comments' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/reported-comments');
    const commentRow = page.getByRole('row').filter({ hasText: text });
    await commentRow.waitFor();
    await page.getByText('2 reports', { exact: true }).waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(2); // the header and the comment
    for (const shown of [ben!.name, cara!.name, dan!.name, 'Spam', 'Offensive', 'Reported 2 times'])
      await commentRow.getByText(shown, { exact: true }).waitFor();
    // 'View Post' opens the post in a new tab, as its icon says: the queue stays where it was
    const viewPost = commentRow.getByRole('link', { name: 'View Post' });
    expect(await viewPost.getAttribute('href')).toBe(`/post/${post.id}`);
    const [postTab] = await Promise.all([page.context().waitForEvent('page'), viewPost.click()]);
    await postTab.waitForURL((url) => url.pathname === `/post/${post.id}`, { waitUntil: 'commit' });
    expect(await postTab.evaluate(() => window.opener === null), 'the post tab has no opener').toBe(true);
    await postTab.close();
    expect(new URL(page.url()).pathname).toBe('/admin/reported-comments');
    expect(await commentRow.getByRole('link', { name: 'History' }).getAttribute('href')).toBe(`/admin/history/post/${post.id}`);
    await expectAccessible('reported comments');
    await snapshot(page, 'admin-reported-comments');

    // Warn User: Ben is warned about this comment; the comment stays, now marked as warned about (#28.6)
    await commentRow.getByRole('button', { name: `Warn User ${ben!.name} about the comment` }).click();
    const confirmWarn = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirmWarn.getByText('This will send a warning to the user').waitFor();
    await confirmWarn.getByRole('button', { name: 'Yes, warn the user' }).click();
    await toast('Warned! User has been warned').waitFor();
    await expect
      .poll(
        async () => {
          const { notifications } = (await (await forum.api('/api/me/notifications', { token: ben!.token })).json()) as Notifications;
          return notifications.map(({ kind, commentId }) => ({ kind, commentId }));
        },
        { timeout: 15_000 },
      )
      .toEqual([{ kind: 'warning', commentId: comment.id }]);
    expect(await commentRow.count()).toBe(1);

    // Ben, in another browser: the bell's warning names the post (a link to it) and quotes his comment
    const bens = await journey.browser.newContext({ viewport: PHONE, reducedMotion: 'reduce' });
    try {
      const forumPage = await bens.newPage();
      await forumPage.goto(`${forum.url}/post/${post.id}`);
      await forumPage.getByRole('link', { name: 'Join Us' }).click();
      await signInAtRealm(forumPage, ben!.email, ben!.password);
      await forumPage.getByRole('button', { name: /^Notifications, \d+ new$/ }).click();
      const panel = forumPage.getByRole('dialog', { name: 'Notifications' });
      await panel.getByText(`“${text}”`, { exact: true }).waitFor();
      expect(await panel.getByRole('link', { name: 'Deploying on Fridays' }).getAttribute('href')).toBe(`/post/${post.id}`);
      expect(await seriousA11yViolations(forumPage), "axe on the warned member's notifications").toEqual([]);
      await snapshot(forumPage, 'member-warning-notification-phone');
    } finally {
      await bens.close();
    }

    await commentRow.getByText('Warned', { exact: true }).waitFor();
    expect(await commentRow.getByRole('button', { name: 'Warn User' }).count()).toBe(0);
    await expectAccessible('reported comments, warned');
    await snapshot(page, 'admin-reported-comments-warned');
    // on a phone, the comment's card says so too (the desktop's open side menu would open as a
    // drawer over the page: a phone starts afresh)
    await page.setViewportSize(PHONE);
    await page.reload();
    const card = page.getByRole('article', { name: `Comment by ${ben!.name}` });
    await card.getByText('Warned', { exact: true }).waitFor();
    expect(await card.getByRole('button', { name: 'Warn User' }).count()).toBe(0);
    await snapshot(page, 'admin-reported-comments-warned-phone');
    await page.setViewportSize(DESKTOP);
    await page.reload();
    await commentRow.waitFor();

    // Delete: the comment and both of its reports go; nothing is left to review
    await commentRow.getByRole('button', { name: `Delete the comment by ${ben!.name}` }).click();
    const confirmDelete = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirmDelete.getByText("You won't be able to revert this!").waitFor();
    await snapshot(page, 'admin-delete-confirm');
    await confirmDelete.getByRole('button', { name: 'Yes, delete it!' }).click();
    await toast('Deleted! Comment deleted successfully').waitFor({ timeout: 15_000 });
    await page.getByText('No reported comments found', { exact: true }).waitFor();
    await page.getByText('When users report comments, they will appear here', { exact: true }).waitFor();
    await expectAccessible('reported comments, empty');
    await snapshot(page, 'admin-reported-comments-empty');
  });
});
