import { existsSync } from 'node:fs';
import { PASSWORD_MISMATCH_MESSAGE, PASSWORD_RULES, PASSWORD_RULES_HINT } from '@forum/contracts';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { GOOGLE_UNCONFIGURED } from './messages.ts';
import { authorizationRequest, startHarness, type Harness } from './test-support.ts';

/**
 * The realm's pages in Debian's Chromium: their inline scripts run under the pages' CSP
 * (hash-allowed), the register page checks the rules of contracts before submitting.
 */
const CHROMIUM = '/usr/bin/chromium';
const chromiumMissing = !existsSync(CHROMIUM);
if (chromiumMissing) console.warn(`${import.meta.filename} skipped: Debian chromium (${CHROMIUM}) not installed`);

describe.skipIf(chromiumMissing)('realm pages in Chromium', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    h = await startHarness();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage();
    problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text()); // CSP refusals land here
    });
  });

  afterEach(async () => {
    await page.close();
    expect(problems).toEqual([]);
  });

  it('register: the rules in order and the confirmation are checked in the page; the toggle shows the password', { timeout: 30_000 }, async () => {
    const request = authorizationRequest(h, { path: 'registrations' });
    await page.goto(request.url);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('Name').fill('Browser User');
    await page.getByLabel('Photo URL').fill('https://example.test/b.png');
    await page.getByLabel('Email').fill('browser@forum.local');
    const password = page.locator('#password');
    const error = page.locator('#password-error');

    await password.fill('Ab!');
    await password.blur();
    await expect.poll(() => error.textContent()).toBe(PASSWORD_RULES[0].message);
    await password.fill('abcdefg!');
    await expect.poll(() => error.textContent()).toBe(PASSWORD_RULES[1].message);
    await password.fill('ABCDEFG!');
    await expect.poll(() => error.textContent()).toBe(PASSWORD_RULES[2].message);
    await password.fill('Abcdefgh');
    await expect.poll(() => error.textContent()).toBe(PASSWORD_RULES[3].message);
    await password.fill('Abcdefg!');
    await expect.poll(() => error.isHidden()).toBe(true);

    await page.locator('#toggle-password').click();
    expect(await password.getAttribute('type')).toBe('text');
    expect(await page.locator('#toggle-password').textContent()).toBe('Hide');

    // a mismatch stops the submit in the page
    await page.locator('#password-confirm').fill('Abcdefg?');
    const before = page.url();
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.locator('#password-confirm-error').textContent()).toBe(PASSWORD_MISMATCH_MESSAGE);
    expect(page.url()).toBe(before);

    await page.locator('#password-confirm').fill('Abcdefg!');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL((url) => url.origin === h.origin && url.pathname === '/post/7');
    expect(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('code')).toBeTruthy();
  });

  it(
    '#39 edge 20 register: the required fields are marked and the password rules shown before any submit; why Google is unavailable is in view',
    { timeout: 30_000 },
    async () => {
      await page.goto(authorizationRequest(h, { path: 'registrations' }).url);
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      /** The texts the page ties to an element with aria-describedby, in order (its accessible description). */
      const description = async (locator: Locator) => {
        const texts: string[] = [];
        for (const id of ((await locator.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean)) {
          const described = page.locator(`[id="${id}"]`);
          if (await described.isVisible()) texts.push((await described.textContent())!.trim());
        }
        return texts.join(' ');
      };
      // spec §5: name, photo URL, email and password are required (and the confirmation with them)
      for (const name of ['Name', 'Photo URL', 'Email', 'Password', 'Confirm password']) {
        const input = page.getByRole('textbox', { name, exact: true });
        expect(await input.getAttribute('required'), name).toBe('');
        expect(await page.locator(`label[for="${await input.getAttribute('id')}"]`).innerText(), name).toBe(`${name} *`);
      }
      // the handle is optional (the forum makes one from the name): no mark, not required
      const handle = page.getByRole('textbox', { name: 'Handle', exact: true });
      expect(await handle.getAttribute('required')).toBeNull();
      expect(await page.locator('label[for="handle"]').innerText()).toBe('Handle');
      // by keyboard, from the name (focused at load) down the form; the texts under the fields take no stop
      const stops: string[] = [];
      for (let i = 0; i < 7; i++) {
        await page.keyboard.press('Tab');
        stops.push(String(await page.evaluate('document.activeElement.id || document.activeElement.textContent')));
      }
      expect(stops).toEqual(['handle', 'photo', 'email', 'password', 'toggle-password', 'password-confirm', 'Register']);
      // the rules before anything is typed, under the field and in its description; no error yet
      const password = page.getByRole('textbox', { name: 'Password', exact: true });
      const rules = page.getByText(PASSWORD_RULES_HINT, { exact: true });
      expect(await rules.isVisible()).toBe(true);
      expect(await description(password)).toBe(PASSWORD_RULES_HINT);
      expect(await page.locator('#password-error').isHidden()).toBe(true);
      expect(await description(page.getByRole('textbox', { name: 'Photo URL', exact: true }))).toMatch(/https:\/\//);
      // leaving the field for its Show button checks nothing yet: the button stays under the pointer and shows the password
      await password.fill('short');
      await page.locator('#toggle-password').click();
      expect(await password.getAttribute('type')).toBe('text');
      expect(await page.locator('#password-error').isHidden()).toBe(true);
      // a broken rule: its message (the spec's words) joins the rules, which stay in view
      await password.fill('abcdefg!');
      await password.blur();
      await expect.poll(() => description(password)).toBe(`${PASSWORD_RULES_HINT} ${PASSWORD_RULES[1].message}`);
      expect(await rules.isVisible()).toBe(true);
      // Google is not configured here: the reason is written beside the disabled button, not only in a tooltip
      const google = page.getByRole('button', { name: 'Continue with Google' });
      expect(await google.isDisabled()).toBe(true);
      expect(await page.getByText(GOOGLE_UNCONFIGURED, { exact: true }).isVisible()).toBe(true);
      expect(await description(google)).toBe(GOOGLE_UNCONFIGURED);
    },
  );

  it('logout by a link without id_token_hint: the page asks, and its Sign out button signs out under its CSP', { timeout: 30_000 }, async () => {
    await h.realm.accounts.create({ email: 'leaving@forum.local', password: 'Forum#2026', name: 'Leaving' });
    await page.goto(authorizationRequest(h, { redirectUri: `${h.origin}/` }).url);
    await page.getByLabel('Email').fill('leaving@forum.local');
    await page.getByLabel('Password', { exact: true }).fill('Forum#2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === h.origin && url.pathname === '/');

    await page.goto(`${h.issuer}/protocol/openid-connect/logout?client_id=forum-web&post_logout_redirect_uri=${encodeURIComponent(`${h.origin}/`)}`);
    await page.getByRole('heading', { name: 'Sign out' }).waitFor();
    expect(await page.getByText('Do you want to sign out of Forum?').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${h.origin}/`);
    // signed out: a new sign-in shows the login page again
    await page.goto(authorizationRequest(h).url);
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
  });

  it("keycloak-js's cookie probe runs its script under its CSP when the forum frames it", { timeout: 30_000 }, async () => {
    await page.goto(`${h.origin}/app`);
    // as keycloak-js does: a hidden frame of the probe, and the message it posts to its parent (in-page code, hence a string)
    const message = await page.evaluate(`new Promise((resolve) => {
      window.addEventListener('message', (event) => resolve(String(event.data)));
      const frame = document.createElement('iframe');
      frame.src = ${JSON.stringify(`${h.issuer}/protocol/openid-connect/3p-cookies/step1.html`)};
      document.body.append(frame);
    })`);
    expect(message).toBe('unsupported');
  });

  it('login: the page works under its CSP, with the toggle and the Register link', { timeout: 30_000 }, async () => {
    await page.goto(authorizationRequest(h).url);
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('secret');
    await page.locator('#toggle-password').click();
    expect(await page.locator('#password').getAttribute('type')).toBe('text');
    expect(await page.getByRole('button', { name: 'Continue with Google' }).isDisabled()).toBe(true);
    await page.getByRole('main').getByRole('link', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
  });

  it(
    "#39 edge 24 login: a password that breaks a rule gets that rule's message (the spec's words) in the page, and is not sent",
    { timeout: 30_000 },
    async () => {
      await page.goto(authorizationRequest(h).url);
      await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
      const before = page.url();
      await page.getByLabel('Email').fill('rules@forum.local');
      const password = page.getByLabel('Password', { exact: true });
      for (const { password: typed, message } of [
        { password: 'Ab!', message: PASSWORD_RULES[0].message },
        { password: 'abcdefg!', message: PASSWORD_RULES[1].message },
      ]) {
        await password.fill(typed);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await expect.poll(() => page.locator('#password-error').textContent()).toBe(message);
        expect(await password.getAttribute('aria-invalid')).toBe('true');
        expect(page.url()).toBe(before);
      }
      // a password within the rules goes to the server, which answers for the account
      await password.fill('Wrong#2026');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'Invalid email or password.' }).waitFor();
    },
  );

  it('#28.8 Back after a failed then successful sign-in lands on a page, not on a resubmitted form', { timeout: 30_000 }, async () => {
    await h.realm.accounts.create({ email: 'back@forum.local', password: 'Forum#2026', name: 'Back Again' });
    await page.goto(`${h.origin}/about`);
    await page.goto(authorizationRequest(h, { redirectUri: `${h.origin}/post/7` }).url);
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    await page.getByLabel('Email').fill('back@forum.local');
    await page.getByLabel('Password', { exact: true }).fill('Wrong#2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password.' }).waitFor();
    // the answer to the failed post is a page of its own: the address typed stays, never the password
    expect(await page.getByLabel('Email').inputValue()).toBe('back@forum.local');
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    expect(page.url()).not.toContain('Wrong');

    await page.getByLabel('Password', { exact: true }).fill('Forum#2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === h.origin && url.pathname === '/post/7');

    // Back: a page the browser loads with GET, no "Confirm Form Resubmission" (ERR_CACHE_MISS), that says where they are
    const back = await page.goBack();
    expect(back?.request().method()).toBe('GET');
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to the forum' }).getAttribute('href')).toBe(`${h.origin}/`);
  });
});
