import type { TestForum } from '@forum/infra/testing';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing, chromiumMissingMessage, journeySteps, PHONE, setUpJourneys, snapshot } from './support.ts';

/**
 * Searching the forum from the bar, in Debian's Chromium, against the whole product: a word that is
 * only in a post's description, typed in the bar's search box by keyboard, finds the post with the
 * word marked in its snippet, on a desktop and on a phone; a tag with more posts than a page pages
 * like the home list. axe-core finds no serious or critical violation on any screen.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/search.e2e.test.ts'));

describe.skipIf(chromiumMissing)('search in forum-web, in Chromium', () => {
  const journey = setUpJourneys('search');
  const { expectAccessible, tabTo, readModelsReach } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  /** A post by a new member whose description alone holds `word`; its title. */
  async function postWithWordInDescription(word: string): Promise<string> {
    const author = await forum.newUser('Wren Writer');
    const title = `Notes from the coast ${word.length}`;
    const response = await forum.api('/api/posts', {
      method: 'POST',
      token: author.token,
      json: { title, description: `Walking the cliffs we met a ${word} resting on the rocks, then the tide came in.`, tags: ['Career'] },
    });
    expect(response.status).toBe(201);
    await readModelsReach(((await response.json()) as { position: string }).position);
    return title;
  }

  /** The results of `word`: the post titled `title` as a card whose snippet marks the word; then the post opened from its title. */
  async function findAndOpen(word: string, title: string, screen: string) {
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === word);
    await page.getByRole('heading', { level: 1, name: `Search results for “${word}”` }).waitFor();
    await page.getByText('1 post found', { exact: true }).waitFor();
    const card = page.getByRole('list', { name: 'Search results' }).getByRole('article').filter({ hasText: title });
    await card.waitFor();
    expect(await card.locator('mark').allTextContents()).toEqual([word]);
    expect(await page.title()).toBe(`${word} · Search · Forum`);
    await expectAccessible(`search results (${screen})`);
    await snapshot(page, `search-results-${screen}`);
    await card.getByRole('link', { name: title }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/post/'));
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
  }

  it(
    'a word only in a description, typed in the bar by keyboard (Tab, the word, Enter), finds the post with the word marked; its title opens it',
    { timeout: 90_000 },
    async () => {
      const word = 'sandpiperling';
      const title = await postWithWordInDescription(word);
      await page.goto(`${forum.url}/about`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const box = page.getByRole('banner').getByRole('searchbox', { name: 'Search posts' });
      await tabTo(box);
      await expectAccessible('the bar with its search box');
      await snapshot(page, 'search-box-desktop');
      await page.keyboard.type(word);
      await page.keyboard.press('Enter');
      await findAndOpen(word, title, 'desktop');
    },
  );

  it('on a phone the bar has a search button that opens the field: by keyboard too', { timeout: 90_000 }, async () => {
    const word = 'puffinwhistle';
    const title = await postWithWordInDescription(word);
    await page.setViewportSize(PHONE);
    await page.goto(`${forum.url}/`);
    await page.getByRole('heading', { name: 'Welcome to the Forum' }).waitFor();
    const bar = page.getByRole('banner');
    expect(await bar.getByRole('searchbox', { name: 'Search posts' }).isVisible()).toBe(false);
    const opener = bar.getByRole('button', { name: 'Search posts' });
    await tabTo(opener);
    await page.keyboard.press('Enter');
    const box = bar.getByRole('searchbox', { name: 'Search posts' });
    await box.waitFor();
    expect(await box.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    await expectAccessible('the phone bar with its search field open');
    await snapshot(page, 'search-box-phone');
    await page.keyboard.type(word);
    await page.keyboard.press('Enter');
    await box.waitFor({ state: 'detached' });
    await findAndOpen(word, title, 'phone');
  });

  it("#39 edge 9: on a phone the open search field covers the whole bar, the bell's badge too", { timeout: 90_000 }, async () => {
    const admin = await forum.demoAdmin();
    const news = await forum.api('/api/admin/announcements', {
      method: 'POST',
      token: admin.token,
      json: { title: 'Badge news', description: 'So the bell has a badge.' },
    });
    expect(news.status).toBe(201);
    await readModelsReach(((await news.json()) as { position: string }).position);
    await page.setViewportSize(PHONE);
    await page.goto(`${forum.url}/`);
    const bar = page.getByRole('banner');
    await bar.getByRole('button', { name: /^Notifications, \d+ new$/ }).waitFor();
    const opener = bar.getByRole('button', { name: 'Search posts' });
    await opener.click();
    await bar.getByRole('searchbox', { name: 'Search posts' }).waitFor();
    const overlayId = (await opener.getAttribute('aria-controls'))!;
    // what the eye sees at the middle and the corners of the badge (aria-hidden: the count is in the bell's name)
    const seen = await bar.locator('.MuiBadge-badge').evaluate((badge, id) => {
      const overlay = badge.ownerDocument.getElementById(id)!;
      const box = badge.getBoundingClientRect();
      const points = [
        [box.left + box.width / 2, box.top + box.height / 2],
        [box.left + 1, box.top + 1],
        [box.right - 1, box.bottom - 1],
      ] as const;
      return points.map(([x, y]) => overlay.contains(badge.ownerDocument.elementFromPoint(x, y)));
    }, overlayId);
    expect(seen, 'the search field over the badge at its middle and corners').toEqual([true, true, true]);
    await snapshot(page, 'search-box-phone-over-badge');
  });

  it('a tag with more posts than a page pages like the home list, the page in the address', { timeout: 90_000 }, async () => {
    const admin = await forum.demoAdmin();
    const tag = 'Birdwatching';
    expect((await forum.api('/api/admin/tags', { method: 'POST', token: admin.token, json: { name: tag } })).status).toBe(201);
    // 7 posts by two members (a free member writes 5 at most)
    const authors = [await forum.newUser('Tern Tagger'), await forum.newUser('Gull Tagger')];
    let position = '';
    for (let n = 1; n <= 7; n++) {
      const response = await forum.api('/api/posts', {
        method: 'POST',
        token: authors[n % 2]!.token,
        json: { title: `Bird post ${n}`, description: `Sighting number ${n}.`, tags: [tag] },
      });
      expect(response.status).toBe(201);
      position = ((await response.json()) as { position: string }).position;
    }
    await readModelsReach(position);

    await page.goto(`${forum.url}/tags/${tag}`);
    await page.getByRole('heading', { level: 1, name: `Posts Tagged with: #${tag}` }).waitFor();
    await page.getByText('Page 1 / 2', { exact: true }).waitFor();
    expect(await page.getByRole('article').count()).toBe(5);
    await page.getByText('7 posts', { exact: true }).waitFor();
    await expectAccessible('a tag page, page 1');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 / 2', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Bird post 1', exact: true }).waitFor();
    expect(await page.getByRole('article').count()).toBe(2);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await expectAccessible('a tag page, page 2');
    await snapshot(page, 'tag-page-2');
  });
});
