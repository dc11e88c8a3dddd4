import net from 'node:net';
import type { TestForum } from '@forum/infra/testing';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing, chromiumMissingMessage, DESKTOP, isChangeStream, journeySteps, PHONE, setUpJourneys, signInAtRealm, snapshot } from './support.ts';

/**
 * forum-web, live (docs/live.md, docs/web-ux.md): two browsers on one forum. B reads while A (or
 * an admin) writes, and B's pages follow without a reload: a post's new comment and counts, the
 * home page's 'N new posts', the bell's count; B's stream cut while A writes catches up when it
 * comes back; a hidden tab closes its stream and catches up when shown. axe-core finds no serious
 * or critical violation on the live screens.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/live.e2e.test.ts'));

/** The topics of a change stream's request. */
const topicsOf = (url: string) => new URL(url).searchParams.get('topics')?.split(',') ?? [];
/** The page's next change stream to open that follows `topic`. */
const streamOpens = (page: Page, topic: string): Promise<Response> =>
  page.waitForResponse((response) => isChangeStream(response.url()) && topicsOf(response.url()).includes(topic));

describe.skipIf(chromiumMissing)('forum-web, live, in two browsers', () => {
  const journey = setUpJourneys('live');
  const { expectAccessible, apiPost, readModelsReach, signInAt } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  let others: BrowserContext[] = [];
  beforeEach(() => {
    ({ forum, page } = journey);
    others = [];
  });
  afterEach(async () => {
    for (const context of others) await context.close();
  });

  /** A second browser, signed in as a new member, on `path`. */
  async function memberBrowser(name: string, path: string) {
    const member = await forum.newUser(name);
    const context = await journey.browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
    others.push(context);
    const other = await context.newPage();
    // a page that needs sign-in sends the browser to the realm and back; then the page asked for
    await other.goto(`${forum.url}/dashboard`);
    await signInAtRealm(other, member.email, member.password);
    await other.getByRole('button', { name: member.name }).waitFor();
    await other.goto(`${forum.url}${path}`);
    return { member, page: other };
  }

  /** A comment through the API: its position, once the read side has it. */
  async function apiComment(token: string, postId: string, text: string): Promise<string> {
    const answer = await forum.api('/api/comments', { method: 'POST', token, json: { postId, text } });
    expect(answer.status).toBe(201);
    const { position } = (await answer.json()) as { position: string };
    await readModelsReach(position);
    return position;
  }

  /** Marks the page, so a test can tell it was not loaded again. */
  const markLoaded = () =>
    page.evaluate(() => {
      (globalThis as { __liveJourneyMark?: boolean }).__liveJourneyMark = true;
    });
  const stillSameLoad = async () => expect(await page.evaluate(() => (globalThis as { __liveJourneyMark?: boolean }).__liveJourneyMark === true)).toBe(true);

  it('A comments on and votes a post that B has open: B sees the comment and the counts move, without reloading', { timeout: 120_000 }, async () => {
    const writer = await forum.newUser('Wes Writer');
    const title = 'Two browsers, one post';
    const postId = await apiPost(writer, title);

    // B, a visitor, reads the post
    const opened = streamOpens(page, `post:${postId}`);
    await page.goto(`${forum.url}/post/${postId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await opened;
    await page.getByText('No comments yet. Be the first to comment!').waitFor();
    await page.getByRole('button', { name: 'Like 0', exact: true }).waitFor();
    await markLoaded();

    // A, signed in in another browser, comments and likes it
    const a = await memberBrowser('Ada Active', `/post/${postId}`);
    await a.page.getByRole('textbox', { name: 'Write a comment' }).fill('Seen from the other browser!');
    await a.page.getByRole('button', { name: 'Post', exact: true }).click();
    await a.page.getByRole('list', { name: 'Comments' }).getByText('Seen from the other browser!').waitFor();
    await a.page.getByRole('button', { name: 'Like 0', exact: true }).click();
    await a.page.getByRole('button', { name: 'Like 1', exact: true }).waitFor();

    // B: the comment, the comment count and the like, on the page as it was loaded
    await page.getByRole('list', { name: 'Comments' }).getByText('Seen from the other browser!').waitFor();
    await page.getByRole('link', { name: '1 comment' }).waitFor();
    await page.getByRole('button', { name: 'Like 1', exact: true }).waitFor();
    await stillSameLoad();
    await expectAccessible('a post page after a live comment');
    await snapshot(page, 'live-post-comment-desktop');
    await page.setViewportSize(PHONE);
    await page.getByRole('list', { name: 'Comments' }).scrollIntoViewIfNeeded();
    await snapshot(page, 'live-post-comment-phone');
  });

  it("B on the home page sees 'N new posts' when A posts, the list staying put; pressing it shows them", { timeout: 90_000 }, async () => {
    const opened = streamOpens(page, 'posts');
    await page.goto(`${forum.url}/`);
    const posts = page.getByRole('region', { name: 'Posts' });
    await posts.getByRole('article').first().waitFor();
    await opened;
    const firstBefore = await posts.getByRole('article').first().getByRole('heading').textContent();
    await markLoaded();

    const author = await forum.newUser('Nia Newpost');
    await apiPost(author, 'Fresh from the other browser');
    await apiPost(author, 'And one more, fresher still');

    const bar = page.getByRole('button', { name: '2 new posts' });
    await bar.waitFor();
    // said to a screen reader, politely; and the list has not moved under the reader
    expect(await page.getByRole('status').filter({ has: bar }).count()).toBe(1);
    expect(await posts.getByRole('article').first().getByRole('heading').textContent()).toBe(firstBefore);
    await expectAccessible("the home page with 'N new posts'");
    await snapshot(page, 'live-new-posts-desktop');
    await page.setViewportSize(PHONE);
    await bar.scrollIntoViewIfNeeded();
    await snapshot(page, 'live-new-posts-phone');
    await page.setViewportSize(DESKTOP);

    // by keyboard: the bar is a button in the tab order
    await bar.focus();
    await page.keyboard.press('Enter');
    await posts.getByRole('article').first().getByRole('heading', { name: 'And one more, fresher still' }).waitFor();
    await posts.getByRole('heading', { name: 'Fresh from the other browser' }).waitFor();
    expect(await bar.count()).toBe(0);
    await stillSameLoad();
  });

  it("catches up after B's stream was cut while A wrote: what was missed is replayed when it comes back", { timeout: 90_000 }, async () => {
    const writer = await forum.newUser('Cy Cutoff');
    const postId = await apiPost(writer, 'A stream cut and back');
    const proxy = await streamProxy(forum);
    try {
      // B's stream goes through a proxy the test can cut (the rest of the page does not)
      await page.route('**/api/stream?**', (route) => route.continue({ url: proxy.address(route.request().url()) }));
      const opened = streamOpens(page, `post:${postId}`);
      await page.goto(`${forum.url}/post/${postId}`);
      await page.getByText('No comments yet. Be the first to comment!').waitFor();
      await opened;
      await markLoaded();
      const reads: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes(`/api/posts/${postId}/comments`)) reads.push(request.headers()['x-min-position'] ?? '-');
      });
      const reopened: string[] = [];
      page.on('request', (request) => {
        if (isChangeStream(request.url())) reopened.push(new URL(request.url()).searchParams.get('lastEventId') ?? '-');
      });

      proxy.cut();
      const position = await apiComment(writer.token, postId, 'Written while the stream was cut');
      // nothing reached B meanwhile
      expect(await page.getByText('Written while the stream was cut').count()).toBe(0);
      proxy.restore();

      await page.getByRole('list', { name: 'Comments' }).getByText('Written while the stream was cut').waitFor({ timeout: 30_000 });
      await page.getByRole('link', { name: '1 comment' }).waitFor();
      // the stream came back from where it was (a new EventSource cannot send Last-Event-ID: the address carries it)
      expect(reopened.at(-1)).toMatch(/^\d+\.\d+$/);
      // the comment came by the replayed message (its read carries the message's position), not by a read of everything
      expect(reads).toEqual([position]);
      await stillSameLoad();
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await proxy.close();
    }
  });

  it('a hidden tab closes its stream after a grace, and catches up when shown again', { timeout: 90_000 }, async () => {
    const writer = await forum.newUser('Hal Hidden');
    const postId = await apiPost(writer, 'A tab in the background');
    const opened = streamOpens(page, `post:${postId}`);
    await page.goto(`${forum.url}/post/${postId}`);
    await page.getByText('No comments yet. Be the first to comment!').waitFor();
    const first = await opened;
    await markLoaded();

    // the tab is hidden (headless Chromium keeps every page visible: the page is told as a browser tells it)
    const closed = page.waitForEvent('requestfailed', { predicate: (request) => request === first.request(), timeout: 30_000 });
    await setVisibility(page, 'hidden');
    const startedHiding = Date.now();
    await closed;
    expect(Date.now() - startedHiding).toBeGreaterThan(5_000);

    const streams: string[] = [];
    page.on('request', (request) => {
      if (isChangeStream(request.url())) streams.push(new URL(request.url()).searchParams.get('lastEventId') ?? '-');
    });
    await apiComment(writer.token, postId, 'Written while the tab was hidden');
    expect(streams).toEqual([]);
    expect(await page.getByText('Written while the tab was hidden').count()).toBe(0);

    const back = streamOpens(page, `post:${postId}`);
    await setVisibility(page, 'visible');
    await back;
    expect(streams).toHaveLength(1);
    expect(streams[0]).toMatch(/^\d+\.\d+$/);
    await page.getByRole('list', { name: 'Comments' }).getByText('Written while the tab was hidden').waitFor();
    await stillSameLoad();
  });

  it("B's bell count moves when an admin publishes an announcement, and when B is warned (B's own stream)", { timeout: 90_000 }, async () => {
    const b = await forum.newUser('Bea Bell');
    await signInAt(b, '/dashboard');
    const opened = streamOpens(page, 'me');
    await page.goto(`${forum.url}/about`);
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await bell.waitFor();
    await opened;
    await markLoaded();
    const count = async () => Number(/(\d+) new/.exec((await bell.getAttribute('aria-label')) ?? '')?.[1] ?? 0);
    const before = await count();

    const admin = await forum.demoAdmin();
    const published = await forum.api('/api/admin/announcements', {
      method: 'POST',
      token: admin.token,
      json: { title: `Live news ${Date.now()}`, description: 'Told to every open page.' },
    });
    expect(published.status).toBe(201);
    await expect.poll(count, { timeout: 15_000 }).toBe(before + 1);

    const warned = await forum.api(`/api/admin/warn-user/${encodeURIComponent(b.email)}`, {
      method: 'POST',
      token: admin.token,
      json: { reason: 'Told on your own stream only' },
    });
    expect(warned.status).toBe(201);
    await expect.poll(count, { timeout: 15_000 }).toBe(before + 2);
    await stillSameLoad();
    await expectAccessible('the bell after live news');
  });
});

/** Sets `document.visibilityState` in the page and tells it, as a browser does when its tab is hidden or shown. */
async function setVisibility(page: Page, state: 'hidden' | 'visible') {
  await page.evaluate((state) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => state === 'hidden' });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  }, state);
}

/**
 * A TCP proxy in front of the forum that the test can cut: `cut` ends every connection through it
 * and refuses new ones (a network gone), `restore` lets them through again.
 */
async function streamProxy(forum: TestForum) {
  const target = new URL(forum.url);
  const sockets = new Set<net.Socket>();
  const cut = () => {
    for (const socket of sockets) socket.destroy();
  };
  let down = false;
  const server = net.createServer((client) => {
    if (down) return void client.destroy();
    const upstream = net.connect(Number(target.port), '127.0.0.1');
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
    };
    sockets.add(client);
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) socket.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    /** `url` of the forum, through the proxy. */
    address: (url: string) => Object.assign(new URL(url), { port: String(port) }).href,
    cut() {
      down = true;
      cut();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        cut();
      }),
  };
}
