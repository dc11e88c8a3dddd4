import { DEMO_PASSWORD } from '@forum/infra/embedded';
import type { TestForum } from '@forum/infra/testing';
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, chromiumMissing, chromiumMissingMessage, journeySteps, PHONE, setUpJourneys, signInAtRealm, snapshot } from './support.ts';

/**
 * Every list of admin-web (/admin) on a phone (390 px), in Debian's Chromium, against the whole
 * product on a free port: each shows its records as cards, fits the screen (nothing to scroll
 * sideways) under the whole app bar, and axe-core finds no serious or critical violation; content
 * wider than the phone scrolls inside the page, never the bar. On a desktop, Posts leads to each
 * post's history.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/admin-phone.e2e.test.ts'));

describe.skipIf(chromiumMissing)('the console’s lists on a phone, in Chromium', () => {
  const journey = setUpJourneys('admin-phone');
  const { expectAccessible, readModelsReach } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  /** A call through the API that must be accepted; its answer. */
  async function accepted(path: string, init: { method: string; token?: string; json?: unknown }): Promise<{ id: string; position: string }> {
    const response = await forum.api(path, init);
    expect(response.status, `${init.method} ${path}`).toBe(201);
    return (await response.json()) as { id: string; position: string };
  }

  const signIn = async (path: string) => {
    await page.goto(`${forum.url}${path}`);
    await signInAtRealm(page, ADMIN_EMAIL, DEMO_PASSWORD);
    await page.waitForURL((url) => url.origin === forum.url && url.pathname.replace(/\/$/, '') === path);
  };

  /** The page is no wider than the screen, and the app bar, its menu button and its account menu are whole on it. */
  async function fitsUnderWholeBar(screen: string) {
    const width = page.viewportSize()!.width;
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen}: the page's width`).toBeLessThanOrEqual(width);
    const inView = async (part: Locator) => {
      const box = (await part.boundingBox())!;
      return box.x >= 0 && box.x + box.width <= width;
    };
    const bar = page.getByRole('banner');
    expect(await inView(bar), `${screen}: the app bar`).toBe(true);
    expect(await inView(bar.getByRole('button', { name: /^Profile/ })), `${screen}: the account menu`).toBe(true);
    expect(await inView(bar.getByRole('button', { name: /menu/i }).first()), `${screen}: the menu button`).toBe(true);
  }

  it('shows every list as cards that fit the screen, under the whole app bar', { timeout: 180_000 }, async () => {
    // ── something in every list: a reported comment, a contact message
    const [writer, reporter] = await Promise.all([forum.newUser('Wanda Writer'), forum.newUser('Rex Reporter')]);
    const title = 'A post whose comment is reported';
    const post = await accepted('/api/posts', {
      method: 'POST',
      token: writer.token,
      json: { title, description: 'Its comment is reported for the phone journey.', tags: ['Career'] },
    });
    const comment = await accepted('/api/comments', { method: 'POST', token: writer.token, json: { postId: post.id, text: 'Buy cheap watches at my site!' } });
    await accepted(`/api/comments/${comment.id}/report`, { method: 'POST', token: reporter.token, json: { feedback: 'spam' } });
    const sent = await accepted('/api/contact', {
      method: 'POST',
      json: { name: 'Vera Visitor', email: 'vera@example.com', message: 'Hello! A dark theme, please.' },
    });
    await readModelsReach(sent.position);

    await page.setViewportSize(PHONE);
    await signIn('/admin');
    await page.getByText('Totals compared', { exact: true }).waitFor();
    await fitsUnderWholeBar('dashboard');
    await snapshot(page, 'admin-phone-dashboard');

    const lists: Array<[path: string, card: string]> = [
      ['/admin/manage-users', 'Wanda Writer'],
      ['/admin/reported-comments', 'Comment by Wanda Writer'],
      ['/admin/audit', 'Created the tag #React'],
      ['/admin/contact-messages', 'Message from Vera Visitor'],
      ['/admin/projections', 'tags, build 1'],
      ['/admin/posts', title],
    ];
    for (const [path, card] of lists) {
      await page.goto(`${forum.url}${path}`);
      await page.getByRole('article', { name: card }).waitFor();
      expect(await page.getByRole('table').count(), `${path}: no table`).toBe(0);
      await fitsUnderWholeBar(path);
      await expectAccessible(`${path} on a phone`);
      await snapshot(page, `admin-phone-${path.slice('/admin/'.length)}`);
    }

    // a post's card leads to its history
    await page
      .getByRole('article', { name: title })
      .getByRole('link', { name: `History of the post “${title}”` })
      .click();
    await page.waitForURL((url) => url.pathname === `/admin/history/post/${post.id}`);
    await page.getByRole('heading', { level: 1, name: `History of the post “${title}”` }).waitFor();
    await fitsUnderWholeBar('a post’s history');

    // content wider than the phone (a wide table, a long unbroken line) scrolls inside the page, under the whole bar
    await page.evaluate(() => {
      const wide = document.createElement('div');
      wide.id = 'wide';
      wide.style.cssText = 'width: 1200px; height: 8px';
      document.getElementById('main-content')!.append(wide);
    });
    await fitsUnderWholeBar('a page with content wider than the phone');
  });

  it('on a desktop, Posts leads to each post’s history', { timeout: 60_000 }, async () => {
    const writer = await forum.newUser('Hana History');
    const title = 'A post with a history';
    const post = await accepted('/api/posts', {
      method: 'POST',
      token: writer.token,
      json: { title, description: 'Written for the history journey.', tags: ['Career'] },
    });
    await readModelsReach(post.position);

    await signIn('/admin/posts');
    const row = page.getByRole('row').filter({ hasText: title });
    await row.waitFor();
    await expectAccessible('posts');
    await snapshot(page, 'admin-posts');
    await row.getByRole('link', { name: `History of the post “${title}”` }).click();
    await page.waitForURL((url) => url.pathname === `/admin/history/post/${post.id}`);
    await page.getByRole('heading', { level: 1, name: `History of the post “${title}”` }).waitFor();
    const created = page
      .getByRole('table', { name: `Events of the post “${title}”` })
      .getByRole('row')
      .filter({ hasText: 'PostCreated' });
    expect(await created.getByRole('link', { name: 'Hana History' }).getAttribute('href')).toBe(`/admin/history/user/${writer.id}`);
  });
});
