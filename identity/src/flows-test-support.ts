import { PASSWORD_RULES, passwordProblem } from '@forum/contracts';
import { afterAll, beforeAll, expect } from 'vitest';
import { authorizationRequest, type CookieJar, mailLinkFor, ONE_PROXY, passwordTokens, randomAddress, startHarness, type Harness } from './test-support.ts';

/** What the account flows' tests share: a realm with an admin and Alice, and the steps of a browser on its pages. */

export const PASSWORD = 'Forum#2026';
export const NEW_PASSWORD = 'Better!Pass9';

/** Every test counts its throttles against its own client address (the realm trusts X-Forwarded-For here). */
export const address = randomAddress;

/** One password per rule of contracts, breaking exactly that rule (and passing the ones before it). */
const CANDIDATES = ['Ab!', 'abcdefg!', 'ABCDEFG!', 'Abcdefgh', 'abc', 'ABCDEFGH1'];
export const BREAKING = PASSWORD_RULES.map((rule) => {
  const password = CANDIDATES.find((candidate) => passwordProblem(candidate) === rule.message);
  if (!password) throw new Error(`no sample password breaks "${rule.message}" first`);
  return { password, message: rule.message };
});

async function startAccountsHarness(): Promise<Harness> {
  const h = await startHarness({ trustProxy: ONE_PROXY, mail: { from: 'Forum <no-reply@forum.local>' } });
  await h.realm.accounts.create({ email: 'admin@forum.local', password: PASSWORD, name: 'Admin', roles: ['admin'] });
  await h.realm.accounts.create({ email: 'alice@forum.local', password: PASSWORD, name: 'Alice', picture: 'https://example.test/alice.png' });
  return h;
}

/** Starts the realm for the calling test file before its tests, and closes it after them. */
export function useAccountsRealm(started: (h: Harness) => void) {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startAccountsHarness();
    started(h);
  });
  afterAll(async () => {
    await h?.close();
  });
}

export const tokenFor = async (h: Harness, email: string, password = PASSWORD) => (await passwordTokens(h, email, password)).access_token;

export async function openLoginPage(h: Harness, jar: CookieJar, request = authorizationRequest(h)) {
  const start = await h.get(request.url, jar);
  expect(start.status).toBe(303);
  const pageUrl = start.headers.get('location')!;
  expect(pageUrl).toMatch(/^\/realms\/forum\/login-actions\/authenticate\/[\w-]+$/);
  const page = await h.get(pageUrl, jar);
  return { request, pageUrl, html: await page.text() };
}

export const mailboxLinkFor = (h: Harness, email: string) => mailLinkFor(h, email, 'action-token');

/** Posts a form without following its answer: a refusal must be a 303 to the form's GET page (post-redirect-get); where it goes. */
export async function refusedTo(h: Harness, url: string, form: Record<string, string>, jar: CookieJar): Promise<URL> {
  const res = await fetch(new URL(url, h.origin), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header },
    body: new URLSearchParams(form).toString(),
  });
  jar.store(res);
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!, h.origin);
}
