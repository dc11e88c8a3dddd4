import type { TestForum } from '@forum/infra/testing';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing, chromiumMissingMessage, DESKTOP, isChangeStream, journeySteps, PHONE, requestsSettled, setUpJourneys } from './support.ts';

/**
 * The public pages as HTML (issue #46 item 1, docs/seo.md), in Chromium: with JavaScript turned off a
 * reader still reads the home page, a post and its comments, a tag's and a member's page (the
 * server's markup); with it on, the app hydrates that markup with no hydration error or warning in
 * the console, signed out and signed in.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/public-pages.e2e.test.ts'));

/** What React says when the browser's first render does not match the server's markup (production builds give the error's number). */
const HYDRATION_TROUBLE = /hydrat|did not match|Minified React error #(418|419|423|425)/i;

describe.skipIf(chromiumMissing)('public pages as HTML, in Chromium', () => {
  const journey = setUpJourneys('public-pages');
  const { apiPost, signInAt } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  /** The console's lines and the page's errors from here on. */
  const watchConsole = (on: Page) => {
    const lines: string[] = [];
    on.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
    on.on('pageerror', (error) => lines.push(`pageerror: ${error.message}`));
    return lines;
  };

  it('without JavaScript a reader reads the home page, a post with its comments, a tag and its author', { timeout: 90_000 }, async () => {
    const member = await forum.newUser('Quiet Reader');
    await forum.register(member.token);
    const id = await apiPost(member, 'Reading without scripts', ['Career']);
    const comment = await forum.api('/api/comments', { method: 'POST', token: member.token, json: { postId: id, text: 'Read **without** a script' } });
    expect(comment.status).toBe(201);
    await journeySteps(journey).readModelsReach(((await comment.json()) as { position: string }).position);

    const context = await journey.browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const reader = await context.newPage();
    try {
      await reader.goto(`${forum.url}/`);
      await reader.getByRole('heading', { name: 'Welcome to the Forum', level: 1 }).waitFor();
      expect(await reader.getByRole('article').count()).toBeGreaterThan(0);

      await reader.goto(`${forum.url}/post/${id}`);
      await reader.getByRole('heading', { name: 'Reading without scripts', level: 1 }).waitFor();
      await reader.getByText('written through the API for the journey').waitFor();
      expect(await reader.locator('strong', { hasText: 'without' }).count()).toBe(1);
      await reader.getByText('Read without a script').waitFor();
      expect(await reader.title()).toBe('Reading without scripts · Forum');

      await reader.getByRole('link', { name: '#Career' }).first().click();
      await reader.waitForURL((url) => url.pathname === '/tags/Career');
      await reader.getByRole('heading', { name: 'Posts Tagged with: #Career' }).waitFor();
      await reader.getByRole('link', { name: 'Reading without scripts' }).first().waitFor();
    } finally {
      await context.close();
    }
  });

  it('the app hydrates the home page and a post with no hydration trouble, signed out and signed in', { timeout: 120_000 }, async () => {
    const member = await forum.newUser('Hydrated Member');
    await forum.register(member.token);
    const id = await apiPost(member, 'A post to hydrate', ['Career']);
    const lines = watchConsole(page);
    const visit = async (path: string, heading: string) => {
      await page.goto(`${forum.url}${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      // the app has taken the page over: the bar's sign-in state has answered
      await page.waitForFunction(() => document.querySelector('header [role="progressbar"]') === null);
    };

    await visit('/', 'Welcome to the Forum');
    await visit(`/post/${id}`, 'A post to hydrate');
    await page.getByRole('link', { name: 'Join Us' }).waitFor();

    await signInAt(member, '/leaderboard');
    await visit('/', 'Welcome to the Forum');
    await page.getByRole('button', { name: member.name }).waitFor();
    await visit(`/post/${id}`, 'A post to hydrate');
    await page.getByRole('button', { name: member.name }).waitFor();
    // the member's own post: theirs to edit, once the app knows them (after hydration)
    await page.getByRole('link', { name: 'Edit' }).waitFor();

    expect(lines.filter((line) => HYDRATION_TROUBLE.test(line))).toEqual([]);
  });

  it(
    "hydration keeps the server's markup on a slow network: the heading the server sent is still the one shown, never a spinner in its place",
    { timeout: 90_000 },
    async () => {
      const member = await forum.newUser('Slow Network');
      await forum.register(member.token);
      const id = await apiPost(member, 'A post on a slow network', ['Career']);
      const context = await journey.browser.newContext({ viewport: PHONE });
      // the server's h1 is marked as the page arrives; whether the page's main ever showed the spinner is noted
      await context.addInitScript(() => {
        const seen = { spinner: false };
        (window as unknown as { seen: typeof seen }).seen = seen;
        document.addEventListener('DOMContentLoaded', () => {
          const heading = document.querySelector('main h1');
          if (heading) (heading as unknown as { fromServer: boolean }).fromServer = true;
          new MutationObserver(() => {
            if (document.querySelector('main')?.textContent?.includes('Loading…')) seen.spinner = true;
          }).observe(document.body, { childList: true, subtree: true, characterData: true });
        });
      });
      // the API answers a moment after the page's code has come, as on a phone's network
      await context.route('**/api/**', async (route) => {
        if (!isChangeStream(route.request().url())) await new Promise((resolve) => setTimeout(resolve, 400));
        await route.continue();
      });
      try {
        for (const [path, heading] of [
          ['/', 'Welcome to the Forum'],
          [`/post/${id}`, 'A post on a slow network'],
        ] as const) {
          const reader = await context.newPage();
          await reader.goto(`${forum.url}${path}`);
          await reader.getByRole('link', { name: 'Join Us' }).waitFor();
          await requestsSettled(reader);
          const kept = await reader.evaluate(() => ({
            heading: document.querySelector('main h1')?.textContent,
            fromServer: (document.querySelector('main h1') as unknown as { fromServer?: boolean } | null)?.fromServer === true,
            spinner: (window as unknown as { seen: { spinner: boolean } }).seen.spinner,
          }));
          expect(kept, path).toEqual({ heading, fromServer: true, spinner: false });
          await reader.close();
        }
      } finally {
        await context.close();
      }
    },
  );
});
