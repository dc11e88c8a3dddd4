import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, chromiumMissingMessage, setUpJourneys, takeCspViolations } from './support.ts';

/**
 * Clickjacking, tried as an attacker would: a page of another origin (a server of its own on
 * 127.0.0.1, the forum being on localhost) frames the forum, a post, the admin console and the
 * realm's login page, in Debian's Chromium. The browser refuses each (frame-ancestors 'none',
 * X-Frame-Options DENY) and says so; a frame of the attacker's own origin on the same page loads,
 * so a refusal is the forum's headers at work, not a page that never loads.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/framing.e2e.test.ts'));

describe.skipIf(chromiumMissing)('the forum framed by a page of another origin, in Chromium', () => {
  const journey = setUpJourneys('framing');
  let attacker: Server;
  let attackerOrigin: string;

  beforeAll(async () => {
    attacker = createServer((req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      if (req.url === '/own') return void res.end('<!doctype html><title>own</title><p id="own">a page the attacker may frame</p>');
      const targets = new URL(req.url ?? '/', 'http://attacker.invalid').searchParams.getAll('frame');
      res.end(
        `<!doctype html><title>Win a prize</title>${[...targets, '/own'].map((src) => `<iframe src="${src}" width="400" height="300"></iframe>`).join('')}`,
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (attacker ? attacker.close(() => resolve()) : resolve())));

  it('refuses to show the forum, a post, the console and the realm’s login page in the frame', { timeout: 60_000 }, async () => {
    const { forum, page } = journey;
    expect(new URL(forum.url).origin).not.toBe(attackerOrigin);
    const posts = (await (await forum.api('/api/posts?page=1')).json()) as { posts: { _id: string }[] };
    const login = await forum.api(
      `/realms/forum/protocol/openid-connect/auth?client_id=forum-web&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(`${forum.url}/`)}&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256`,
      { redirect: 'manual' },
    );
    const targets = [
      `${forum.url}/`,
      `${forum.url}/post/${posts.posts[0]!._id}`,
      `${forum.url}/admin/`,
      new URL(login.headers.get('location')!, forum.url).href,
    ];

    await page.goto(`${attackerOrigin}/?${targets.map((target) => `frame=${encodeURIComponent(target)}`).join('&')}`);
    await page.waitForLoadState('load');
    const frameOf = (url: string) => page.frames().find((frame) => frame !== page.mainFrame() && frame.url().startsWith(url));
    const shows = (frame: Frame | undefined, selector: string) => frame?.locator(selector).count() ?? Promise.resolve(0);

    // the attacker's own page loads in its frame
    await expect.poll(() => shows(frameOf(`${attackerOrigin}/own`), '#own')).toBe(1);
    // the browser says, for each target, that the page refused to be framed
    await expect.poll(() => takeCspViolationsSeen().filter((line) => /frame-ancestors 'none'/.test(line)).length, { timeout: 10_000 }).toBe(targets.length);
    // and nothing of them is in the frames: no app root, no login form
    for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
      expect(await frame.locator('#root, form').count(), frame.url()).toBe(0);
    }
  });

  // The refusals are what this test expects to see; the journey's own check (none at the end) must
  // not count them, so they are taken from the browser's list and kept here.
  const seen: string[] = [];
  function takeCspViolationsSeen(): string[] {
    seen.push(...takeCspViolations(journey.browser));
    return seen;
  }
});
