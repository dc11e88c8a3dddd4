import type { AdminStats } from '@forum/contracts';
import { DEMO_PASSWORD } from '@forum/infra/embedded';
import type { TestForum } from '@forum/infra/testing';
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, chromiumMissing, chromiumMissingMessage, DESKTOP, journeySteps, PHONE, setUpJourneys, signInAtRealm, snapshot } from './support.ts';

/**
 * The admin's own pages of admin-web (/admin), in Debian's Chromium, against the whole product on
 * a free port: the demo admin signs in on the realm's page and lands on 'Admin Profile' (the admin
 * card, the three totals as cards and as a chart), adds a tag, is told a tag that exists exists,
 * deletes the new one by keyboard through its confirmation, then posts an announcement (an empty
 * form first shows both messages) and is back on the dashboard; a visitor's bell on the forum
 * shows the announcement. axe-core finds no serious or critical violation on either page.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/admin-console.e2e.test.ts'));

describe.skipIf(chromiumMissing)('the admin dashboard and Make Announcement, in Chromium', () => {
  const journey = setUpJourneys('admin-console');
  const { expectAccessible, tabTo, toast } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  const isFocused = (name: string) => page.getByRole('textbox', { name }).evaluate((element) => element === element.ownerDocument.activeElement);

  it('shows the stats, adds and deletes a tag, posts an announcement the forum’s bell shows', { timeout: 180_000 }, async () => {
    const admin = await forum.demoAdmin();
    const { stats } = (await (await forum.api('/api/admin/stats', { token: admin.token })).json()) as AdminStats;

    // ── the console asks for the realm's sign-in and comes back to its dashboard
    await page.goto(`${forum.url}/admin`);
    await signInAtRealm(page, ADMIN_EMAIL, DEMO_PASSWORD);
    await page.waitForURL((url) => url.origin === forum.url && /^\/admin\/?$/.test(url.pathname));

    // ── Admin Profile: the admin card, the totals the API gives, the chart of them
    await page.getByRole('heading', { name: 'Admin Profile', level: 1 }).waitFor();
    const card = page.getByRole('region', { name: 'Admin card' });
    await card.getByRole('heading', { name: 'Forum Admin' }).waitFor();
    await card.getByText(ADMIN_EMAIL, { exact: true }).waitFor();
    await card.getByText('Admin', { exact: true }).waitFor();
    for (const [name, value] of [
      ['Total Posts', stats.totalPosts],
      ['Total Comments', stats.totalComments],
      ['Total Users', stats.totalUsers],
    ] as const) {
      await page.getByRole('group', { name }).getByText(String(value), { exact: true }).waitFor();
    }
    const chart = page.getByRole('img', { name: /^Bar chart of the totals/ });
    await chart.waitFor();
    expect(await chart.getAttribute('aria-label')).toContain(`Total Posts ${stats.totalPosts}`);
    await expect.poll(() => chart.locator('svg rect[fill]').count()).toBeGreaterThanOrEqual(3);
    const tags = page.getByRole('list', { name: 'Tags' });
    await tags.getByRole('listitem').filter({ hasText: '#React' }).waitFor();
    await expectAccessible('dashboard');
    await snapshot(page, 'admin-dashboard');

    // ── Manage Tags: a new tag, then one that exists (named in its own spelling); what came of each
    // is said in the card, over none of the tags
    const manageTags = page.getByRole('region', { name: 'Manage Tags' });
    const saidInTheCard = (role: 'status' | 'alert', text: string) => manageTags.getByRole(role).filter({ hasText: text });
    const coversNoTag = async (message: Locator) => {
      const box = (await message.boundingBox())!;
      for (const chip of await tags.getByRole('listitem').all()) {
        const other = (await chip.boundingBox())!;
        const apart = box.x + box.width <= other.x || other.x + other.width <= box.x || box.y + box.height <= other.y || other.y + other.height <= box.y;
        expect(apart, `${await message.textContent()} covers ${await chip.textContent()}`).toBe(true);
      }
    };
    const newTag = `Kotlin${Date.now().toString(36).slice(-4)}`;
    const input = page.getByRole('textbox', { name: 'Enter new tag' });
    await input.fill(newTag);
    await page.getByRole('button', { name: 'Add Tag' }).click();
    const addedMessage = saidInTheCard('status', 'Tag added successfully');
    await addedMessage.waitFor();
    const added = tags.getByRole('listitem').filter({ hasText: `#${newTag}` });
    await added.waitFor();
    await coversNoTag(addedMessage);
    expect(await input.inputValue()).toBe('');
    await input.fill('react');
    await input.press('Enter');
    const exists = saidInTheCard('alert', 'Failed to add tag: #React already exists');
    await exists.waitFor();
    await coversNoTag(exists);
    // (a text filter ignores case: the typed spelling is told apart by a pattern)
    expect(
      await page
        .getByRole('alert')
        .filter({ hasText: /#react already exists/ })
        .count(),
    ).toBe(0);
    await expectAccessible('dashboard, a tag that exists');
    await snapshot(page, 'admin-tag-exists');
    await input.fill('');
    await exists.waitFor({ state: 'detached' });

    // deleted by keyboard alone: Tab from 'Enter new tag' to its delete icon, Enter, and Enter on the confirmation's own button
    await tabTo(page.getByRole('button', { name: `Delete tag #${newTag}` }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: `Delete tag #${newTag}` });
    await confirm.getByText('Are you sure you want to delete this tag?').waitFor();
    await expectAccessible('delete tag confirmation');
    await snapshot(page, 'admin-delete-tag-confirm');
    await page.keyboard.press('Enter');
    await saidInTheCard('status', 'Tag deleted successfully').waitFor();
    await expect.poll(() => added.count()).toBe(0);
    await confirm.waitFor({ state: 'hidden' });
    // the focus is not lost with the button: it is back in 'Enter new tag'
    await expect.poll(() => isFocused('Enter new tag')).toBe(true);

    // ── Make Announcement: both messages for an empty form, then posted, back on the dashboard
    await page.getByRole('menuitem', { name: 'Make Announcement' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/make-announcement');
    await page.getByRole('button', { name: 'Post Announcement' }).click();
    await page.getByText('Title is required', { exact: true }).waitFor();
    await page.getByText('Description is required', { exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Title' }).getAttribute('aria-invalid')).toBe('true');
    await expectAccessible('make announcement, empty form submitted');
    await snapshot(page, 'admin-make-announcement-invalid');

    const title = `Maintenance window ${Date.now()}`;
    await page.getByRole('textbox', { name: 'Title' }).fill(title);
    await page.getByRole('textbox', { name: 'Description' }).fill('The forum is read-only on Sunday from 02:00 to 03:00 UTC.');
    expect(await page.getByText('Title is required', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Post Announcement' }).click();
    await toast('Announcement created successfully').waitFor({ timeout: 15_000 });
    await page.waitForURL((url) => /^\/admin\/?$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Admin Profile', level: 1 }).waitFor();

    // ── the forum, as a visitor in another browser: the bell counts and lists it (once the read side has it)
    await expect
      .poll(async () => ((await (await forum.api('/api/announcements')).json()) as { title: string }[]).some((a) => a.title === title), { timeout: 15_000 })
      .toBe(true);
    const visitor = await journey.browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
    try {
      const home = await visitor.newPage();
      await home.goto(`${forum.url}/`);
      const bell = home.getByRole('button', { name: /^Notifications, \d+ new$/ });
      await bell.waitFor({ timeout: 15_000 });
      await bell.click();
      await home.getByRole('dialog', { name: 'Notifications' }).getByText(`${title} (new)`).waitFor();
    } finally {
      await visitor.close();
    }

    // the dashboard on a phone: one column
    await page.setViewportSize(PHONE);
    await page.getByText('Totals compared', { exact: true }).waitFor();
    await snapshot(page, 'admin-dashboard-phone');
  });
});
