import { DEMO_PASSWORD } from '@forum/infra/embedded';
import type { TestForum } from '@forum/infra/testing';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, chromiumMissing, chromiumMissingMessage, journeySteps, setUpJourneys, signInAtRealm, snapshot } from './support.ts';

/**
 * The operators' journey through admin-web (/admin), in Debian's Chromium, against the whole
 * product on a free port: the demo admin signs in on the realm's page, narrows the staff action log
 * to post deletions (by keyboard alone), follows the deleted post's entry to its history and opens
 * its PostCreated event, reads a contact message a visitor has just sent, and rebuilds the tags
 * projection until its new build is live. axe-core finds no serious or critical violation on any screen.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/admin-operations.e2e.test.ts'));

describe.skipIf(chromiumMissing)('operators in the admin console, in Chromium', () => {
  const journey = setUpJourneys('admin-operations');
  const { expectAccessible, tabTo, readModelsReach } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  /** A call through the API; its answer once accepted. */
  async function accepted(path: string, init: { method: string; token?: string; json?: unknown }, status: number): Promise<{ id: string; position: string }> {
    const response = await forum.api(path, init);
    expect(response.status, `${init.method} ${path}`).toBe(status);
    return (await response.json()) as { id: string; position: string };
  }

  it('reads the staff action log by type, a post’s history, the contact inbox, and rebuilds a projection', { timeout: 150_000 }, async () => {
    // ── the forum's side, through the API: a member's post that the admin deletes, a visitor's message
    const member = await forum.newUser('Rita Removed');
    const admin = await forum.demoAdmin();
    const title = 'Selling cheap watches here';
    const post = await accepted(
      '/api/posts',
      { method: 'POST', token: member.token, json: { title, description: 'Best prices in town, message me!', tags: ['Career'] } },
      201,
    );
    await accepted(`/api/my-posts/${post.id}`, { method: 'DELETE', token: admin.token }, 200);
    const message = `Hello team! ${'I would love a dark theme for reading the forum late at night. '.repeat(4)}Thanks for the forum.`;
    const sent = await accepted('/api/contact', { method: 'POST', json: { name: 'Vera Visitor', email: 'vera@example.com', message } }, 201);
    await readModelsReach(sent.position);

    // ── the console asks for the realm's sign-in and comes back to the staff action log
    await page.goto(`${forum.url}/admin/audit`);
    await signInAtRealm(page, ADMIN_EMAIL, DEMO_PASSWORD);
    await page.waitForURL((url) => url.origin === forum.url && url.pathname === '/admin/audit');

    // ── Staff actions: the demo data's tags are there; the type filter, by keyboard alone, keeps the post deletions
    await page.getByRole('row').filter({ hasText: 'Created the tag #React' }).waitFor();
    const deletion = page.getByRole('row').filter({ hasText: 'Deleted a post by Rita Removed' });
    const type = page.getByRole('combobox', { name: 'Type' });
    await page.getByRole('textbox', { name: 'Actor (email or id)' }).focus();
    await tabTo(type);
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'Post deleted' }).waitFor();
    // down the list to post deletions, as a keyboard user reads each option on the way
    const focused = page.locator('[role="option"]:focus');
    for (let step = 0; step < 20 && (await focused.textContent()) !== 'Post deleted'; step++) await page.keyboard.press('ArrowDown');
    expect(await focused.textContent()).toBe('Post deleted');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Created the tag' }).count(), { timeout: 10_000 }).toBe(0);
    await deletion.waitFor();
    expect(await type.textContent()).toBe('Post deleted');
    expect(new URL(page.url()).searchParams.get('filter')).toBe(JSON.stringify({ type: 'PostDeleted' }));
    expect(await deletion.getByRole('link', { name: 'Forum Admin' }).getAttribute('href')).toMatch(/^\/admin\/history\/user\//);
    await expectAccessible('staff actions, post deletions');
    await snapshot(page, 'admin-audit-post-deleted');

    // ── the deleted post's history, from its entry: created by Rita, deleted by the admin
    await deletion.getByRole('link', { name: `History of post ${post.id}` }).click();
    await page.waitForURL((url) => url.pathname === `/admin/history/post/${post.id}`);
    await page.getByRole('heading', { level: 1, name: `History of the post “${title}”` }).waitFor();
    const events = page.getByRole('table', { name: `Events of the post “${title}”` });
    const created = events.getByRole('row').filter({ hasText: 'PostCreated' });
    expect(await created.getByRole('link', { name: 'Rita Removed' }).getAttribute('href')).toBe(`/admin/history/user/${member.id}`);
    const deleted = events.getByRole('row').filter({ hasText: 'PostDeleted' });
    expect(await deleted.getByRole('link', { name: 'Forum Admin' }).getAttribute('href')).toBe(`/admin/history/user/${admin.id}`);
    expect(await events.getByRole('row').count()).toBe(3); // the header and the two events
    await page.getByRole('button', { name: 'Show data of event 1, PostCreated' }).click();
    const data = page.getByLabel('Data of event 1, PostCreated', { exact: true });
    expect(JSON.parse(await data.innerText())).toMatchObject({ postId: post.id, title, authorName: 'Rita Removed' });
    await expectAccessible('post history, data open');
    await snapshot(page, 'admin-post-history');

    // ── Contact messages: Vera's, newest first, opened in full
    await page.getByRole('menuitem', { name: 'Contact messages' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/contact-messages');
    const vera = page.getByRole('row').filter({ hasText: 'Vera Visitor' });
    await vera.waitFor();
    expect(await vera.getByRole('link', { name: 'vera@example.com' }).getAttribute('href')).toBe('mailto:vera@example.com');
    expect(await vera.getByText(message).count()).toBe(0);
    await vera.getByRole('button', { name: 'Read more of the message from Vera Visitor' }).click();
    await vera.getByText(message).waitFor();
    await expectAccessible('contact messages');
    await snapshot(page, 'admin-contact-messages');

    // ── Projections: tags rebuilt blue-green; the page follows the new build until it is live
    await page.getByRole('menuitem', { name: 'Projections' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/projections');
    const tags = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'tags', exact: true }) });
    await tags.getByText('v1 · build 1').waitFor();
    await expectAccessible('projections');
    await tags.getByRole('button', { name: 'Rebuild tags' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rebuild tags?' });
    await confirm.getByText('A new build of tags replays the whole event log').waitFor();
    await expectAccessible('rebuild confirmation');
    await snapshot(page, 'admin-projections-confirm');
    await confirm.getByRole('button', { name: 'Yes, rebuild' }).click();
    await page.getByRole('status').filter({ hasText: 'tags rebuilt: build 2 is live' }).waitFor({ timeout: 20_000 });
    await tags.getByText('v1 · build 2').waitFor();
    await expect.poll(() => tags.count()).toBe(1); // the old build is gone
    await tags.getByText('Live', { exact: true }).waitFor();
    await expectAccessible('projections, rebuilt');
    await snapshot(page, 'admin-projections-rebuilt');

    // ── the rebuild is a staff action: the admin asked for tags' build 2
    await page.getByRole('menuitem', { name: 'Staff actions' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/audit');
    await type.click();
    await page.getByRole('option', { name: 'Projection rebuild' }).click();
    const rebuild = page.getByRole('row').filter({ hasText: 'Started a rebuild of tags (tags v1 build 2)' });
    await rebuild.waitFor();
    await rebuild.getByText('Projection rebuild').waitFor();
    expect(await rebuild.getByRole('link', { name: 'Forum Admin' }).count()).toBe(1);

    // ── on a phone: each operators' page fits the screen, its records as cards with their actions
    // (the desktop's open side menu would open as a drawer over the page: a phone starts afresh)
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await page.getByRole('article', { name: 'Started a rebuild of tags (tags v1 build 2)' }).waitFor();
    expect(await fits()).toBe(true);
    await snapshot(page, 'admin-audit-phone');
    await page.goto(`${forum.url}/admin/contact-messages`);
    await page
      .getByRole('article', { name: 'Message from Vera Visitor' })
      .getByRole('button', { name: 'Read more of the message from Vera Visitor' })
      .waitFor();
    expect(await fits()).toBe(true);
    await snapshot(page, 'admin-contact-messages-phone');
    await page.goto(`${forum.url}/admin/projections`);
    const rebuildTags = page.getByRole('article', { name: 'tags, build 2' }).getByRole('button', { name: 'Rebuild tags' });
    await rebuildTags.waitFor();
    expect(await rebuildTags.isVisible()).toBe(true);
    expect(await fits()).toBe(true);
    await expectAccessible('projections on a phone');
    await snapshot(page, 'admin-projections-phone');
    await page.goto(`${forum.url}/admin/history/post/${post.id}`);
    await page.getByRole('button', { name: 'Show data of event 1, PostCreated' }).click();
    await page.getByLabel('Data of event 1, PostCreated', { exact: true }).waitFor();
    expect(await fits()).toBe(true);
    await expectAccessible('post history on a phone');
    await snapshot(page, 'admin-post-history-phone');
  });

  it(
    'says on To that it is before From and sends no such filter; an address with one says why in the page, with no pager count (#39 edge 6)',
    { timeout: 90_000 },
    async () => {
      const refused: string[] = [];
      page.on('response', (response) => {
        if (new URL(response.url()).pathname === '/api/admin/audit' && response.status() === 400) refused.push(response.url());
      });
      await page.goto(`${forum.url}/admin/audit`);
      await signInAtRealm(page, ADMIN_EMAIL, DEMO_PASSWORD);
      await page.waitForURL((url) => url.origin === forum.url && url.pathname === '/admin/audit');
      await page.getByRole('row').filter({ hasText: 'Created the tag #React' }).waitFor();
      const pager = page.getByText(/^\d+-\d+ of \d+$/);
      const count = await pager.textContent();

      // From after To, typed: the message is on To, and the log and its count stay as they were
      const from = page.getByRole('textbox', { name: 'From', exact: true });
      const to = page.getByRole('textbox', { name: 'To', exact: true });
      await to.fill('2026-11-10');
      await from.fill('2026-11-20');
      await expect.poll(() => to.getAttribute('aria-invalid')).toBe('true');
      const message = page.getByText('To must not be before From', { exact: true });
      await message.waitFor();
      expect(await to.getAttribute('aria-describedby')).toBe(await message.getAttribute('id'));
      expect(await page.getByRole('alert').count()).toBe(0);
      await expectAccessible('staff actions, To before From');
      await snapshot(page, 'admin-audit-to-before-from');
      // a later day for To: the message goes, the filter is read (and the first was never sent)
      const read = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/admin/audit' && (new URL(response.url()).searchParams.get('filter') ?? '').includes('since'),
      );
      await to.fill('2026-11-21');
      expect((await read).status()).toBe(200);
      await message.waitFor({ state: 'detached' });
      expect(refused).toEqual([]);

      // an address whose filter the server refuses: why, in the page; no toast, no pager count; Clear filters reads the log again
      const span = JSON.stringify({ since: '2026-11-20T00:00:00.000Z', until: '2026-11-10T23:59:59.999Z' });
      await page.goto(`${forum.url}/admin/audit?filter=${encodeURIComponent(span)}`);
      const refusal = page.getByRole('alert').filter({ hasText: 'To must not be before From' });
      await refusal.waitFor();
      expect(refused).toHaveLength(1);
      expect(await page.getByText('Bad Request').count()).toBe(0);
      expect(await pager.count()).toBe(0);
      await expectAccessible('staff actions, a refused filter');
      await snapshot(page, 'admin-audit-refused-filter');
      await refusal.getByRole('button', { name: 'Clear filters' }).click();
      await page.getByRole('row').filter({ hasText: 'Created the tag #React' }).waitFor();
      expect(await pager.textContent()).toBe(count);
    },
  );
});
