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
 * Issue #43 in the console, in Debian's Chromium, against the whole product: a member reports a
 * post; the demo admin makes another member moderator in Manage Users; the moderator signs in,
 * finds the post in the Reports queue, hides it with a reason, and the row moves to Handled with
 * the reason; the post's author is told the reason (their `moderation` notification, read through
 * the API: forum-web's hidden mark is another branch's work). axe-core on every screen, at a
 * desktop's and a phone's width.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/console-moderators.e2e.test.ts'));

describe.skipIf(chromiumMissing)('a moderator works the reports queue, in Chromium', () => {
  const journey = setUpJourneys('console-moderators');
  const { readModelsReach } = journeySteps(journey);
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

  /** axe-core finds no serious or critical violation on `on` as it is. */
  async function expectAccessible(on: Page, screen: string) {
    expect(await seriousA11yViolations(on), `axe on ${screen}`).toEqual([]);
  }

  /** A toast (react-admin's notification) with `text` on `on`. */
  const toast = (on: Page, text: string) => on.getByRole('alert').filter({ hasText: text });

  /** The page at a phone's width, checked and snapshotted, then back at a desktop's. */
  async function atBothWidths(on: Page, name: string) {
    await snapshot(on, `${name}-desktop`);
    await on.setViewportSize(PHONE);
    await expectAccessible(on, `${name} at a phone's width`);
    await snapshot(on, `${name}-phone`);
    await on.setViewportSize(DESKTOP);
  }

  it('hides a reported post with a reason; the row moves to Handled and its author is told why', { timeout: 180_000 }, async () => {
    // ── the forum's side: Ann's post, reported by Ben; Mia will be the moderator
    const [ann, ben, mia] = await Promise.all(['Ann Posted', 'Ben Reporter', 'Mia Moderating'].map((name) => forum.newUser(name)));
    await forum.register(mia!.token);
    const title = 'Cheap watches, today only';
    const post = await command(ann!, '/api/posts', { title, description: 'Buy three, get one free at cheap-watches.example!', tags: ['Career'] });
    const report = await command(ben!, `/api/posts/${post.id}/report`, { feedback: 'spam' });
    await readModelsReach(report.position);

    // ── the demo admin makes Mia a moderator in Manage Users
    await page.goto(`${forum.url}/admin/manage-users`);
    await signInAtRealm(page, ADMIN_EMAIL, DEMO_PASSWORD);
    await page.waitForURL((url) => url.origin === forum.url && url.pathname === '/admin/manage-users');
    await page.getByRole('textbox', { name: 'Search users' }).fill('Mia Moderating');
    const miaRow = page.getByRole('row').filter({ hasText: mia!.email });
    await miaRow.getByRole('button', { name: 'Make moderator Mia Moderating' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, make moderator' }).click();
    await toast(page, 'User role updated to moderator').waitFor();
    await miaRow.getByText('Moderator', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Search users' }).fill('');
    await page.getByRole('row').filter({ hasText: ann!.email }).waitFor();
    await expectAccessible(page, 'manage users, as admin');
    await atBothWidths(page, 'console-users-admin');

    // ── Mia signs in to the console: the menu has her entries only
    const context = await journey.browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
    const mias = await context.newPage();
    await mias.goto(`${forum.url}/admin/reports`);
    await signInAtRealm(mias, mia!.email, mia!.password);
    await mias.waitForURL((url) => url.origin === forum.url && url.pathname === '/admin/reports');
    const row = mias.getByRole('row').filter({ hasText: title });
    await row.waitFor();
    expect(await mias.getByRole('menuitem', { name: 'Reports' }).count()).toBe(1);
    for (const adminOnly of ['Reported Comments', 'Make Announcement', 'Projections'])
      expect(await mias.getByRole('menuitem', { name: adminOnly }).count()).toBe(0);
    expect(await row.getByText('1 report').count()).toBe(1);
    expect(await row.getByText('By Ben Reporter').count()).toBe(1);
    await expectAccessible(mias, 'the reports queue, open');
    await atBothWidths(mias, 'console-queue-open');

    // ── the suspend dialog (looked at, then cancelled)
    await row.getByRole('button', { name: /^Suspend author Ann Posted/ }).click();
    const suspend = mias.getByRole('dialog', { name: 'Suspend Ann Posted?' });
    await suspend.getByRole('radio', { name: 'Until a date' }).check();
    await suspend.getByRole('textbox', { name: 'Ends at' }).waitFor();
    await expectAccessible(mias, 'the suspend dialog');
    await snapshot(mias, 'console-suspend-dialog-desktop');
    await suspend.getByRole('button', { name: 'Cancel' }).click();
    await suspend.waitFor({ state: 'hidden' });

    // ── Hide, with a reason: the row leaves the Open tab
    await row.getByRole('button', { name: `Hide the Post “${title}”` }).click();
    const hide = mias.getByRole('dialog', { name: 'Hide this post?' });
    const reason = 'Advertising is not allowed here';
    await hide.getByRole('textbox', { name: /Reason/ }).fill(reason);
    await hide.getByRole('button', { name: 'Hide' }).click();
    await toast(mias, 'The post is hidden').waitFor();
    await mias.getByText('Nothing to review').waitFor();

    // ── Handled: how, by whom, why
    await mias.getByRole('tab', { name: 'Handled' }).click();
    const handled = mias.getByRole('row').filter({ hasText: `Reason: ${reason}` });
    await handled.waitFor();
    expect(await handled.getByText(/by Mia Moderating/).count()).toBe(1);
    await expectAccessible(mias, 'the reports queue, handled');
    await atBothWidths(mias, 'console-queue-handled');

    // ── the moderator's users list: no emails, no admins' buttons
    await mias.getByRole('menuitem', { name: 'Manage Users' }).click();
    await mias.getByRole('row').filter({ hasText: 'Ann Posted' }).getByRole('button', { name: 'Warn Ann Posted' }).waitFor();
    expect(await mias.getByRole('columnheader', { name: 'Email' }).count()).toBe(0);
    expect(await mias.getByRole('button', { name: 'Make Admin' }).count()).toBe(0);
    await expectAccessible(mias, 'manage users, as moderator');
    await atBothWidths(mias, 'console-users-moderator');
    await context.close();

    // ── Ann is told why (forum-web's hidden mark is built on another branch: her notification, through the API)
    await expect
      .poll(
        async () => {
          const { notifications } = (await (await forum.api('/api/me/notifications', { token: ann!.token })).json()) as Notifications;
          return notifications.flatMap((item) => (item.kind === 'moderation' ? [{ action: item.action, reason: item.reason, postId: item.postId }] : []));
        },
        { timeout: 15_000 },
      )
      .toEqual([{ action: 'post-hidden', reason, postId: post.id }]);
    // and nobody else can read the post
    expect((await forum.api(`/api/posts/${post.id}`, { token: ben!.token })).status).toBe(404);
  });
});
