import type { TestForum } from '@forum/infra/testing';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing, chromiumMissingMessage, journeySteps, PHONE, setUpJourneys, snapshot } from './support.ts';

/**
 * A visitor's journeys through forum-web, in Debian's Chromium, against the whole product on a
 * free port (the demo data): home, search by tag, a tag, a post, 404, the narrow-screen menu,
 * the bell after an admin's announcement, the Contact page. axe-core finds no serious or
 * critical violation on any screen.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/visitor.e2e.test.ts'));

describe.skipIf(chromiumMissing)('a visitor in the forum, in Chromium', () => {
  const journey = setUpJourneys('visitor');
  const { expectAccessible } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  it('home → search by tag → a tag → a post → an unknown page → back home', { timeout: 90_000 }, async () => {
    await page.goto(`${forum.url}/`);
    await page.getByRole('heading', { name: 'Welcome to the Forum', level: 1 }).waitFor();
    const posts = page.getByRole('article');
    await posts.first().waitFor();
    expect(await posts.count()).toBe(5);
    await page.getByText(/^Page 1 \/ \d+$/).waitFor();
    await expectAccessible('home');
    await snapshot(page, 'visitor-home');

    // search by tag: each result shows its title, tags and author
    const search = page.getByRole('search');
    await search.getByRole('textbox', { name: 'Tag' }).fill('JavaScript');
    await search.getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('list', { name: 'Posts tagged JavaScript' });
    await results.waitFor();
    const first = results.getByRole('listitem').first();
    await first.getByRole('link').first().waitFor(); // the title; the author's name links to their profile
    await first.getByText('#JavaScript').waitFor();
    await first.getByText(/^by /).getByRole('link').waitFor();
    await expectAccessible('home with search results');

    // the tag strip leads to the tag's page
    await page.getByRole('link', { name: '#React' }).first().click();
    await page.waitForURL((url) => url.pathname === '/tags/React');
    await page.getByRole('heading', { name: 'Posts Tagged with: #React' }).waitFor();
    await expectAccessible('tag page');

    // a post from the home list
    await page.goto(`${forum.url}/`);
    const card = page.getByRole('article').first();
    const title = (await card.getByRole('heading', { level: 3 }).textContent())!.trim();
    await card.getByRole('link', { name: title }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/post/'));
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await expectAccessible('post');
    await snapshot(page, 'visitor-post');

    await page.goto(`${forum.url}/no/such/page`);
    const back = page.getByRole('link', { name: 'Back to Home' });
    await back.waitFor();
    await expectAccessible('404');
    await back.click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Welcome to the Forum' }).waitFor();
  });

  it('on a phone the links fold into a menu that works by keyboard', { timeout: 60_000 }, async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${forum.url}/`);
    await page.getByRole('heading', { name: 'Welcome to the Forum' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const menuButton = page.getByRole('button', { name: 'Open navigation menu' });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Home', 'About', 'Contact']);
    // the page you are on is marked, as the wide bar marks it
    expect(await menu.getByRole('menuitem', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    expect(await menu.getByRole('menuitem', { name: 'About' }).getAttribute('aria-current')).toBeNull();
    await expectAccessible('phone menu');
    await snapshot(page, 'visitor-phone-menu');
    await menu.getByRole('menuitem', { name: 'About' }).click();
    await page.waitForURL((url) => url.pathname === '/about');
    await expectAccessible('about on a phone');
  });

  it("the bell counts an admin's new announcement, lists it, and forgets the count once opened", { timeout: 60_000 }, async () => {
    await page.goto(`${forum.url}/`);
    await page.getByRole('heading', { name: 'Welcome to the Forum' }).waitFor();
    // what is there already is seen once the bell has been opened
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await page.getByRole('dialog', { name: 'Notifications' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

    const admin = await forum.demoAdmin();
    const title = `Maintenance on Sunday ${Date.now()}`;
    const created = await forum.api('/api/admin/announcements', {
      method: 'POST',
      token: admin.token,
      json: { title, description: 'The forum is read-only from 02:00 to 03:00 UTC.' },
    });
    expect(created.status).toBe(201);
    const { position } = (await created.json()) as { position: string };
    await expect.poll(async () => (await forum.api('/api/announcements', { headers: { 'X-Min-Position': position } })).status).toBe(200);

    await page.reload();
    const bell = page.getByRole('button', { name: 'Notifications, 1 new' });
    await bell.waitFor();
    // the home page's announcements block shows it too
    await page.getByRole('region', { name: 'Announcements' }).getByRole('heading', { name: title }).waitFor();
    await expectAccessible('home with an announcement');
    await bell.click();
    const list = page.getByRole('dialog', { name: 'Notifications' });
    await list.getByText(`${title} (new)`).waitFor();
    await snapshot(page, 'visitor-bell');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
  });

  it('sends a message from the Contact page', { timeout: 60_000 }, async () => {
    await page.goto(`${forum.url}/contact`);
    await page.getByRole('heading', { name: 'Contact us' }).waitFor();
    await expectAccessible('contact');
    await page.getByRole('textbox', { name: 'Name' }).fill('Ann Visitor');
    await page.getByRole('textbox', { name: 'Email' }).fill('ann@example.com');
    await page.getByRole('textbox', { name: 'Message' }).fill('How do I become a Gold member?');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Thank you! Your message has been sent. We will get back to you soon.').waitFor();
    expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('');
  });
});
