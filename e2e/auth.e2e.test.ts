import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEADER_EVENT_POSITION, HEADER_MIN_POSITION, REGISTRATION_PATH } from '@forum/contracts';
import { DEMO_PASSWORD } from '@forum/infra/embedded';
import { startTestForum, type TestForum } from '@forum/infra/testing';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, CHROMIUM, CHROMIUM_ARGS, chromiumMissing, chromiumMissingMessage, signInAtRealm, snapshot, watchCspViolations } from './support.ts';

/**
 * Sign-in journeys through the realm's own login page, in Debian's Chromium, against the whole
 * product (gateway, built web apps, embedded realm, services) on a free port.
 * E2E_ARTIFACTS=<dir> keeps a screenshot of the signed-in forum there.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const REVOKE_PATH = '/realms/forum/protocol/openid-connect/revoke';
const isRevocation = (request: Request) => new URL(request.url()).pathname === REVOKE_PATH && request.method() === 'POST';
/** The form a revocation request posted. */
const revokedForm = (request: Request) => new URLSearchParams(request.postData() ?? '');

if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/auth.e2e.test.ts'));

describe.skipIf(chromiumMissing)('signing in through the realm, in Chromium', () => {
  let forum: TestForum;
  let userDataDir: string;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    for (const app of ['forum-web', 'admin-web']) {
      if (!existsSync(path.join(root, app, 'dist/index.html'))) throw new Error(`${app} is not built: run "npm run build:web" first (npm test does)`);
    }
    [forum, userDataDir] = await Promise.all([startTestForum(), mkdtemp(path.join(os.tmpdir(), 'forum-e2e-chromium-'))]);
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
    });
    await watchCspViolations(context, cspViolations);
    // lets forum-web expose its token getter to this test (see forum-web/src/main.tsx)
    await context.addInitScript(() => {
      (globalThis as { __FORUM_E2E__?: boolean }).__FORUM_E2E__ = true;
    });
  });

  afterAll(async () => {
    await context?.close();
    await forum?.stop();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await context.clearCookies();
    page = await context.newPage();
    pageErrors = [];
    cspViolations.length = 0;
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && process.env.E2E_ARTIFACTS) {
      await mkdir(process.env.E2E_ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(process.env.E2E_ARTIFACTS, `failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}.png`) }).catch(() => {});
    }
    await page.close();
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
    expect(cspViolations, 'CSP violations the browser reported').toEqual([]);
  });

  it('forum-web: Join Us on /about signs alice in, back on /about; her token creates a post; Logout signs her out', { timeout: 90_000 }, async () => {
    await page.goto(`${forum.url}/about`);
    await page.getByRole('heading', { name: 'About the Forum' }).waitFor();

    await page.getByRole('link', { name: 'Join Us' }).click();
    await signInAtRealm(page, 'alice@forum.local', DEMO_PASSWORD);

    // back on the page she came from, the code taken out of the URL, signed in
    await page.waitForURL((url) => url.origin === forum.url && url.pathname === '/about' && url.hash === '');
    await page.getByRole('heading', { name: 'About the Forum' }).waitFor();
    const avatar = page.getByRole('button', { name: 'Alice Martin' });
    await avatar.waitFor();
    await page.getByRole('alert').filter({ hasText: 'Login Successfully' }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'Join Us' }).count()).toBe(0);
    await snapshot(page, 'forum-signed-in');

    // the API accepts the page's own access token
    const created = await page.evaluate(async () => {
      const token = await (globalThis as { __FORUM_AUTH__?: { token(): Promise<string | undefined> } }).__FORUM_AUTH__?.token();
      const response = await fetch('/api/posts', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'Written in the browser', description: 'Posted with the token of the signed-in page.', tags: ['React'] }),
      });
      return { status: response.status, body: (await response.json()) as { id?: string } };
    });
    expect(created.status).toBe(201);
    expect(created.body.id).toEqual(expect.any(String));

    // and the app's own API calls carry it too (RTK Query's base query)
    const listRequest = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/posts' && request.method() === 'GET');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    expect((await listRequest).headers().authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);

    // the menu: name, Dashboard, Logout
    await avatar.click();
    const menu = page.getByRole('menu');
    await menu.getByText('Alice Martin').waitFor();
    await menu.getByRole('menuitem', { name: 'Dashboard' }).waitFor();
    await snapshot(page, 'forum-account-menu');
    // Logout revokes the refresh token at the realm before it ends the session there
    const revocation = page.waitForRequest(isRevocation);
    await menu.getByRole('menuitem', { name: 'Logout' }).click();
    const revoked = await revocation;
    expect(revokedForm(revoked).get('client_id')).toBe('forum-web');
    expect(revokedForm(revoked).get('token_type_hint')).toBe('refresh_token');
    expect((await revoked.response())?.status()).toBe(200);

    await page.waitForURL((url) => url.origin === forum.url && url.pathname === '/');
    await page.getByRole('alert').filter({ hasText: 'Logout Successfully' }).waitFor();
    await page.getByRole('link', { name: 'Join Us' }).waitFor();
    expect(await page.getByRole('button', { name: 'Alice Martin' }).count()).toBe(0);

    // the realm's session is over too: a reload stays signed out
    await page.reload();
    await page.getByRole('link', { name: 'Join Us' }).waitFor();
    expect(await page.getByRole('button', { name: 'Alice Martin' }).count()).toBe(0);
  });

  it(
    "forum-web: a new member's sign-in registers them with the forum (POST /api/me/registration), before any command of theirs",
    { timeout: 90_000 },
    async () => {
      const member = await forum.newUser('Nova Newcomer');
      expect((await forum.store.readStream(`user-${member.id}`)).events).toEqual([]);
      await page.goto(`${forum.url}/about`);
      await page.getByRole('heading', { name: 'About the Forum' }).waitFor();
      const registration = page.waitForRequest((request) => new URL(request.url()).pathname === REGISTRATION_PATH && request.method() === 'POST');
      await page.getByRole('link', { name: 'Join Us' }).click();
      await signInAtRealm(page, member.email, member.password);
      await page.getByRole('button', { name: 'Nova Newcomer' }).waitFor();
      const registered = await registration;
      expect(registered.headers().authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      expect((await registered.response())?.status()).toBe(200);
      expect((await forum.store.readStream(`user-${member.id}`)).events.map((event) => event.type)).toEqual(['UserRegistered', 'HandleChanged']);

      // the member's own reads show the registration: My Profile asks for a read side that has applied it
      const position = (await registered.response())?.headers()[HEADER_EVENT_POSITION.toLowerCase()];
      expect(position).toMatch(/^\d+\.\d+$/);
      const profileRead = page.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/api/user-profile/'));
      await page.getByRole('button', { name: 'Nova Newcomer' }).click();
      await page.getByRole('menu').getByRole('menuitem', { name: 'Dashboard' }).click();
      await page.getByRole('heading', { name: 'My Profile', level: 1 }).waitFor();
      expect((await profileRead).headers()[HEADER_MIN_POSITION.toLowerCase()]).toBe(position);
    },
  );

  it("forum-web: Logout's revocation alone ends the refresh token (the realm's session, kept here, signs the page in again)", { timeout: 90_000 }, async () => {
    await page.goto(`${forum.url}/about`);
    await page.getByRole('link', { name: 'Join Us' }).click();
    await signInAtRealm(page, 'bob@forum.local', DEMO_PASSWORD);
    const avatar = page.getByRole('button', { name: 'Bob Chen' });
    await avatar.waitFor();

    // the way to the realm's end-session is cut: what ends the token is the revocation
    let endSessionCut!: () => void;
    const cut = new Promise<void>((resolve) => (endSessionCut = resolve));
    await page.route('**/realms/forum/protocol/openid-connect/logout**', async (route) => {
      await route.abort();
      endSessionCut();
    });
    const revocation = page.waitForRequest(isRevocation);
    await avatar.click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Logout' }).click();
    const revoked = await revocation;
    expect((await revoked.response())?.status()).toBe(200);
    const refreshed = await fetch(`${forum.url}/realms/forum/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'forum-web', refresh_token: revokedForm(revoked).get('token')! }),
    });
    expect(refreshed.status).toBe(400);
    expect(((await refreshed.json()) as { error: string }).error).toBe('invalid_grant');

    // the session at the realm is still there: a new page is signed in again (a new sign-in, new tokens);
    // the page goes to the end-session after the revocation, so the way is opened again only once it was cut
    await cut;
    await page.unroute('**/realms/forum/protocol/openid-connect/logout**');
    await page.goto(`${forum.url}/about`);
    await page.getByRole('button', { name: 'Bob Chen' }).waitFor();
  });

  it('forum-web: a guarded address with a fragment signs the visitor in and comes back to it, fragment and all', { timeout: 90_000 }, async () => {
    // a redirect URI may not carry a fragment: the realm refused the return address before
    await page.goto(`${forum.url}/leaderboard#top`);
    await signInAtRealm(page, 'bob@forum.local', DEMO_PASSWORD);
    await page.getByRole('heading', { name: 'Leaderboard', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).hash).toBe('/leaderboard#top');
    await page.getByRole('button', { name: 'Bob Chen' }).waitFor();
  });

  it('forum-web: a signed-in reload needs no trip through the realm, and the token is refreshed before it expires', { timeout: 90_000 }, async () => {
    await page.clock.install();
    await page.goto(`${forum.url}/about`);
    await page.getByRole('link', { name: 'Join Us' }).click();
    await signInAtRealm(page, 'bob@forum.local', DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Bob Chen' }).waitFor();

    // check-sso runs in a hidden iframe (silent-check-sso.html): the page itself is loaded once
    const mainFrameUrls: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) mainFrameUrls.push(new URL(request.url()).pathname);
    });
    await page.reload();
    await page.getByRole('button', { name: 'Bob Chen' }).waitFor();
    expect(mainFrameUrls).toEqual(['/about']);

    // 5-minute access tokens: 4.5 minutes on, the scheduled refresh has fetched a new one without being asked
    const token = () => page.evaluate(() => (globalThis as { __FORUM_AUTH__?: { token(): Promise<string | undefined> } }).__FORUM_AUTH__?.token());
    const refreshed = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/protocol/openid-connect/token'));
    const before = await token();
    await page.clock.fastForward('04:30');
    expect((await refreshed).status()).toBe(200);
    const after = await token();
    expect(after).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(after).not.toBe(before);
    const status = await page.evaluate(async (bearer) => (await fetch('/api/posts?page=1', { headers: { Authorization: `Bearer ${bearer}` } })).status, after);
    expect(status).toBe(200);
  });

  it(
    'admin-web: a visitor at /admin goes to the realm login and, signed in as admin, gets the console; Logout revokes and signs out',
    { timeout: 90_000 },
    async () => {
      await page.goto(`${forum.url}/admin`);
      await signInAtRealm(page, ADMIN_EMAIL, DEMO_PASSWORD);

      await page.waitForURL((url) => url.origin === forum.url && url.pathname.startsWith('/admin') && url.hash === '');
      await page.getByRole('menuitem', { name: 'Admin Profile' }).waitFor();
      await page.getByRole('menuitem', { name: 'Posts' }).click();
      await page.getByRole('cell', { name: 'Welcome to the forum!', exact: true }).waitFor();
      // react-admin's user menu shows the identity from the token and offers Logout
      const userMenu = page.getByRole('button', { name: 'Profile' });
      await expect.poll(() => userMenu.textContent(), { timeout: 10_000 }).toContain('Forum Admin');
      await snapshot(page, 'admin-console');
      await userMenu.click();
      // admin-web's Logout revokes its refresh token too, then ends the session
      const revocation = page.waitForRequest(isRevocation);
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      const revoked = await revocation;
      expect(revokedForm(revoked).get('client_id')).toBe('admin-web');
      expect((await revoked.response())?.status()).toBe(200);
      // signed out at the realm too: the console, loaded again, asks to sign in (the page was on
      // /admin already, so only the realm's form says the sign-out went through and the page has settled)
      await page.waitForURL((url) => url.origin === forum.url && url.pathname.startsWith('/realms/forum/login-actions/authenticate/'));
      await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    },
  );

  it('admin-web: a signed-in user without the admin role sees Access Denied, then the forum', { timeout: 90_000 }, async () => {
    await page.goto(`${forum.url}/admin`);
    await signInAtRealm(page, 'bob@forum.local', DEMO_PASSWORD);

    await page.waitForURL((url) => url.origin === forum.url && url.pathname.startsWith('/admin'));
    await page.getByText('You must be an admin to access this page').waitFor();
    expect(await page.getByRole('cell', { name: 'Welcome to the forum!' }).count()).toBe(0);
    // then the forum opens on its own
    await page.waitForURL((url) => url.origin === forum.url && url.pathname === '/', { timeout: 15_000 });
    await page.getByRole('heading', { name: 'Welcome to the Forum', level: 1 }).waitFor();
  });
});
