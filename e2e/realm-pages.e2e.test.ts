import { randomBytes } from 'node:crypto';
import { BRAND } from '@forum/contracts';
import type { TestForum } from '@forum/infra/testing';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing, chromiumMissingMessage, journeySteps, PHONE, setUpJourneys, snapshot } from './support.ts';

/**
 * The identity realm's own pages as a visitor meets them from forum-web, in Debian's Chromium,
 * against the whole product on a free port: the header they share with the forum, and the
 * greeting after registering through the sign-in page. axe-core finds no serious or critical
 * violation on any of them.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/realm-pages.e2e.test.ts'));

/** `#rrggbb` as the browser computes it. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
/** The element's computed background colour (in-page code, hence through its window). */
const background = (element: { ownerDocument: { defaultView: unknown } }) =>
  (element.ownerDocument.defaultView as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(element).backgroundColor;

describe.skipIf(chromiumMissing)("the realm's pages, from the forum, in Chromium", () => {
  const journey = setUpJourneys('realm-pages');
  const { expectAccessible, toast } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  /** The realm's header: the brand link to the forum, Login and Register. */
  const header = () => page.getByRole('navigation', { name: BRAND.name });

  it("#28.4 registering through the sign-in page's Register link greets 'Register Successfully'", { timeout: 90_000 }, async () => {
    await page.goto(`${forum.url}/about`);
    await page.getByRole('heading', { name: 'About the Forum' }).waitFor();
    await page.getByRole('link', { name: 'Join Us' }).click();
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    // the link under the sign-in form ("New to Forum? Register")
    await page.getByRole('main').getByRole('link', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();

    const email = `newcomer-${randomBytes(4).toString('hex')}@forum.local`;
    await page.getByLabel('Name').fill('New Comer');
    await page.getByLabel('Photo URL').fill('https://example.test/newcomer.png');
    await page.getByLabel('Email').fill(email);
    // the marks ' *' of required fields are hidden from the accessible name, not from the label's text
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Forum#2026');
    await page.getByLabel('Confirm password').fill('Forum#2026');
    await page.getByRole('button', { name: 'Register' }).click();

    await page.waitForURL((url) => url.origin === forum.url && url.pathname === '/about' && url.hash === '');
    await page.getByRole('button', { name: 'New Comer' }).waitFor();
    await toast('Register Successfully').waitFor();
    expect(await toast('Login Successfully').count()).toBe(0);
  });

  it("#28.14 every realm page has the forum's header (brand link to /, Login, Register) in the forum's colours", { timeout: 90_000 }, async () => {
    await page.goto(`${forum.url}/about`);
    await page.getByRole('link', { name: 'Join Us' }).click();
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();

    const brand = header().getByRole('link', { name: BRAND.name, exact: true });
    expect(await brand.getAttribute('href')).toBe(`${forum.url}/`);
    expect(await header().getByRole('link', { name: 'Login' }).getAttribute('aria-current')).toBe('page');
    // the forum's primary colour, the one the app bar has
    expect(await page.getByRole('banner').evaluate(background)).toBe(rgb(BRAND.primary));
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).evaluate(background)).toBe(rgb(BRAND.primary));
    await expectAccessible('realm sign-in');
    await snapshot(page, 'realm-sign-in');

    // Register in the header goes to this sign-in's register page, and Login back
    await header().getByRole('link', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    expect(await header().getByRole('link', { name: 'Register' }).getAttribute('aria-current')).toBe('page');
    await expectAccessible('realm register');
    await snapshot(page, 'realm-register');
    await header().getByRole('link', { name: 'Login' }).click();
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();

    // a page outside a sign-in (forgot password) has it too; on a phone nothing scrolls sideways
    await page.setViewportSize(PHONE);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible('realm forgot password');
    await snapshot(page, 'realm-forgot-password-phone');

    // the brand link is the way back to the forum
    await header().getByRole('link', { name: BRAND.name, exact: true }).click();
    await page.waitForURL(`${forum.url}/`);
    await page.getByRole('link', { name: 'Join Us' }).waitFor();
  });
});
