import { randomBytes } from 'node:crypto';
import { PASSWORD_MISMATCH_MESSAGE, PASSWORD_RULES, passwordProblem, REGISTER_ACTION } from '@forum/contracts';
import { createTokenVerifier } from '@forum/platform';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpired } from './adapter.ts';
import { deleteExpiredBrokerStates } from './broker.ts';
import { deleteOldMail } from './mail.ts';
import { DUPLICATE_EMAIL_MESSAGE, RESET_NEUTRAL_MESSAGE, RESET_SENT_MESSAGE } from './messages.ts';
import { deleteExpiredLimits } from './throttle.ts';
import {
  alertOf,
  AUDIENCE,
  authorizationRequest,
  codeOf,
  CookieJar,
  exchangeCode,
  fieldErrorOf,
  followToApp,
  formAction,
  formValue,
  mailLinkFor,
  openRegisterPage,
  passwordTokens,
  randomAddress,
  startHarness,
  type Harness,
  ONE_PROXY,
  uniqueEmail,
} from './test-support.ts';

const PASSWORD = 'Forum#2026';
const NEW_PASSWORD = 'Better!Pass9';

let h: Harness;
/** Every test counts its throttles against its own client address (the realm trusts X-Forwarded-For here). */
const address = randomAddress;

/** One password per rule of contracts, breaking exactly that rule (and passing the ones before it). */
const CANDIDATES = ['Ab!', 'abcdefg!', 'ABCDEFG!', 'Abcdefgh', 'abc', 'ABCDEFGH1'];
const BREAKING = PASSWORD_RULES.map((rule) => {
  const password = CANDIDATES.find((candidate) => passwordProblem(candidate) === rule.message);
  if (!password) throw new Error(`no sample password breaks "${rule.message}" first`);
  return { password, message: rule.message };
});

beforeAll(async () => {
  h = await startHarness({ trustProxy: ONE_PROXY, mail: { from: 'Forum <no-reply@forum.local>' } });
  await h.realm.accounts.create({ email: 'admin@forum.local', password: PASSWORD, name: 'Admin', roles: ['admin'] });
  await h.realm.accounts.create({ email: 'alice@forum.local', password: PASSWORD, name: 'Alice', picture: 'https://example.test/alice.png' });
});

afterAll(async () => {
  await h?.close();
});

const tokenFor = async (email: string, password = PASSWORD) => (await passwordTokens(h, email, password)).access_token;

async function openLoginPage(jar: CookieJar, request = authorizationRequest(h)) {
  const start = await h.get(request.url, jar);
  expect(start.status).toBe(303);
  const pageUrl = start.headers.get('location')!;
  expect(pageUrl).toMatch(/^\/realms\/forum\/login-actions\/authenticate\/[\w-]+$/);
  const page = await h.get(pageUrl, jar);
  return { request, pageUrl, html: await page.text() };
}

const mailboxLinkFor = (email: string) => mailLinkFor(h, email, 'action-token');

/** Posts a form without following its answer: a refusal must be a 303 to the form's GET page (post-redirect-get); where it goes. */
async function refusedTo(url: string, form: Record<string, string>, jar: CookieJar): Promise<URL> {
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

describe('register page', () => {
  it('is reached from keycloak-js register() and has the fields, the toggle, the inline checks and the brand', async () => {
    const jar = new CookieJar();
    const { html, page } = await openRegisterPage(h, jar);
    for (const field of ['name', 'photo', 'email', 'password', 'password-confirm']) expect(html).toContain(`name="${field}"`);
    expect(html).toMatch(/<input id="email" name="email" type="email"[^>]* required/);
    expect(html).toMatch(/<input id="photo" name="photo" type="url"[^>]* required/);
    expect(html).toContain('id="toggle-password"');
    expect(html).toContain('class="brand"');
    expect(html).toContain('Forum');
    // the rules travel with the page, with the contracts' own messages (and the confirmation check)
    for (const rule of PASSWORD_RULES) expect(html).toContain(JSON.stringify(rule.message));
    expect(html).toContain(JSON.stringify(PASSWORD_MISMATCH_MESSAGE));
    // Google is not configured here: a disabled button that says why
    expect(html).toMatch(/<button type="button" class="social" id="social-google" disabled title="Google sign-in is not configured on this server.">/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
  });

  it('checks each password rule in order on the server, then the confirmation, keeping the entered values', async () => {
    const jar = new CookieJar();
    const { pageUrl, html } = await openRegisterPage(h, jar);
    const csrf = formValue(html, 'csrf');
    const values = { name: 'Rule <Tester>', photo: 'https://example.test/p.png?a=1&b=2', email: uniqueEmail('rules') };
    for (const { password, message } of BREAKING) {
      const res = await h.postForm(pageUrl, { csrf, ...values, password, 'password-confirm': password }, jar, { 'x-forwarded-for': address() });
      expect(res.status).toBe(400);
      const page = await res.text();
      expect(fieldErrorOf(page, 'password'), password).toBe(message);
      for (const other of PASSWORD_RULES.filter((r) => r.message !== message)) expect(page).not.toContain(`>${other.message}<`);
      expect(formValue(page, 'name')).toBe(values.name);
      expect(formValue(page, 'photo')).toBe(values.photo);
      expect(formValue(page, 'email')).toBe(values.email);
      expect(page).not.toContain(`value="${password}"`);
    }
    expect((await refusedTo(pageUrl, { csrf, ...values, password: PASSWORD, 'password-confirm': `${PASSWORD}x` }, jar)).pathname).toBe(pageUrl);
    const mismatch = await h.postForm(pageUrl, { csrf, ...values, password: PASSWORD, 'password-confirm': `${PASSWORD}x` }, jar);
    expect(mismatch.status).toBe(400);
    const page = await mismatch.text();
    expect(fieldErrorOf(page, 'password')).toBeNull();
    expect(fieldErrorOf(page, 'password-confirm')).toBe(PASSWORD_MISMATCH_MESSAGE);
    expect(page).not.toContain(PASSWORD);
    // required fields and their shape
    const empty = await (await h.postForm(pageUrl, { csrf, name: '', photo: 'javascript:alert(1)', email: 'nope', password: '', 'password-confirm': '' }, jar)).text();
    expect(fieldErrorOf(empty, 'name')).toBe('Name is required.');
    expect(fieldErrorOf(empty, 'photo')).toBe('Photo URL must start with https://');
    expect(fieldErrorOf(empty, 'email')).toBe('Enter a valid email address.');
    expect(fieldErrorOf(empty, 'password')).toBe(PASSWORD_RULES[0].message);
    expect(await h.realm.accounts.findByEmail(values.email)).toBeNull();
  });

  it('refuses a form without its CSRF token', async () => {
    const jar = new CookieJar();
    const { pageUrl } = await openRegisterPage(h, jar);
    const email = uniqueEmail('csrf');
    const res = await h.postForm(pageUrl, { name: 'X', photo: 'https://example.test/x.png', email, password: PASSWORD, 'password-confirm': PASSWORD }, jar);
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    expect(await h.realm.accounts.findByEmail(email)).toBeNull();
  });

  it('signs the new account in and returns to the page the user came from; the account then signs in with its password', async () => {
    const jar = new CookieJar();
    const { request, pageUrl, html } = await openRegisterPage(h, jar);
    const email = uniqueEmail('newbie');
    const res = await h.postForm(
      pageUrl,
      { csrf: formValue(html, 'csrf'), name: 'New Bie', photo: 'https://example.test/newbie.png', email: email.toUpperCase(), password: PASSWORD, 'password-confirm': PASSWORD },
      jar,
    );
    expect(res.status).toBe(303);
    const back = await followToApp(res, jar, h.origin);
    const tokens = await exchangeCode(h, codeOf(back.appUrl!, request), request);
    expect(decodeJwt(tokens.id_token)).toMatchObject({ email, name: 'New Bie', picture: 'https://example.test/newbie.png', nonce: request.nonce });
    const verify = createTokenVerifier({ issuer: h.issuer, audience: AUDIENCE });
    expect(await verify(tokens.access_token)).toMatchObject({ email, name: 'New Bie', roles: ['user'] });
    expect(await verify(await tokenFor(email))).toMatchObject({ email });

    // the same email again: a clear message on the email field
    const otherJar = new CookieJar();
    const again = await openRegisterPage(h, otherJar);
    const duplicate = await h.postForm(
      again.pageUrl,
      { csrf: formValue(again.html, 'csrf'), name: 'Other', photo: 'https://example.test/o.png', email, password: PASSWORD, 'password-confirm': PASSWORD },
      otherJar,
    );
    expect(duplicate.status).toBe(409);
    expect(fieldErrorOf(await duplicate.text(), 'email')).toBe(DUPLICATE_EMAIL_MESSAGE);
  });

  it("is reachable from the login page's Register link, keeping the pending sign-in", async () => {
    const jar = new CookieJar();
    const { request, html } = await openLoginPage(jar, authorizationRequest(h, { clientId: 'admin-web', redirectUri: `${h.origin}/admin/users?page=2` }));
    const registerHref = /href="([^"]+)">Register<\/a>/.exec(html)![1]!;
    const page = await h.get(registerHref, jar);
    expect(page.status).toBe(200);
    const registerHtml = await page.text();
    expect(registerHtml).toContain('Create your account');
    const email = uniqueEmail('from-login');
    const res = await h.postForm(
      formAction(registerHtml),
      { csrf: formValue(registerHtml, 'csrf'), name: 'Linked', photo: 'https://example.test/l.png', email, password: PASSWORD, 'password-confirm': PASSWORD },
      jar,
    );
    const back = await followToApp(res, jar, h.origin);
    expect(back.appUrl!.pathname).toBe('/admin/users');
    // the response says the sign-in registered the account (keycloak-js: onActionUpdate), though the app asked for a sign-in
    const response = new URLSearchParams(back.appUrl!.hash.slice(1));
    expect([response.get('kc_action'), response.get('kc_action_status')]).toEqual([REGISTER_ACTION, 'success']);
    const tokens = await exchangeCode(h, codeOf(back.appUrl!, request), request);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ azp: 'admin-web', email });
  });

  it('throttles registrations per client address (a taken email counts too): 10 an hour, then 429 saying when; another address goes on', async () => {
    const jar = new CookieJar();
    const { pageUrl, html } = await openRegisterPage(h, jar);
    const form = { csrf: formValue(html, 'csrf'), name: 'Again', photo: 'https://example.test/a.png', email: 'alice@forum.local', password: PASSWORD, 'password-confirm': PASSWORD };
    const from = address();
    for (let i = 0; i < 10; i++) expect((await h.postForm(pageUrl, form, jar, { 'x-forwarded-for': from })).status).toBe(409);
    const refused = await h.postForm(pageUrl, form, jar, { 'x-forwarded-for': from });
    expect(refused.status).toBe(429);
    expect(alertOf(await refused.text())).toMatch(/^Too many requests\. Try again in \d+ minutes?\.$/);
    expect((await h.postForm(pageUrl, form, jar, { 'x-forwarded-for': address() })).status).toBe(409);
  });
});

describe('email addresses: one account per mailbox, however the address is written', () => {
  async function register(email: string) {
    const jar = new CookieJar();
    const { pageUrl, html } = await openRegisterPage(h, jar);
    return h.postForm(
      pageUrl,
      { csrf: formValue(html, 'csrf'), name: 'Same Mailbox', photo: 'https://example.test/m.png', email, password: PASSWORD, 'password-confirm': PASSWORD },
      jar,
      { 'x-forwarded-for': address() },
    );
  }

  it('refuses to register alice@forum.local. (trailing dot), another case, surrounding spaces or another Unicode form as a new account', async () => {
    for (const variant of ['alice@forum.local.', ' ALICE@Forum.Local. ']) {
      const res = await register(variant);
      expect(res.status, variant).toBe(409);
      expect(fieldErrorOf(await res.text(), 'email')).toBe(DUPLICATE_EMAIL_MESSAGE);
    }
    const precomposed = `ren\u00e9-${randomBytes(3).toString('hex')}@forum.local`;
    await h.realm.accounts.create({ email: precomposed, password: PASSWORD, name: 'René' });
    expect((await register(precomposed.replace('\u00e9', 'e\u0301'))).status).toBe(409);
    expect((await register('alice@forum.local..')).status).toBe(400);
    const rows = await h.db.withSchema('identity').from('accounts').whereLike('email', 'alice@forum.local%').pluck('email');
    expect(rows).toEqual(['alice@forum.local']);
  });

  it('refuses sign-ins whose address is not one (NUL, a lone surrogate, invisible characters) like a wrong password, page and password grant', async () => {
    for (const username of ['alice\u0000@forum.local', 'alice\ud800@forum.local', '\u200b', 'a'.repeat(300_000)]) {
      const grant = await h.passwordGrant(username, PASSWORD, { 'x-forwarded-for': address() });
      expect(grant.status, JSON.stringify(username.slice(0, 20))).toBe(400);
      // a refused sign-in, or (300 kB) a request the token endpoint does not read
      expect(['invalid_grant', 'invalid_request']).toContain(((await grant.json()) as { error: string }).error);
      const jar = new CookieJar();
      const login = await openLoginPage(jar);
      const page = await h.postForm(formAction(login.html), { csrf: formValue(login.html, 'csrf'), email: username, password: PASSWORD }, jar, { 'x-forwarded-for': address() });
      expect(page.status).toBeLessThan(500);
    }
  });

  it('signs in (page and password grant), resets the password and finds the account (admin API) with any spelling of the address', async () => {
    const jar = new CookieJar();
    const login = await openLoginPage(jar);
    const signedIn = await h.postForm(formAction(login.html), { csrf: formValue(login.html, 'csrf'), email: ' Alice@Forum.LOCAL. ', password: PASSWORD }, jar, {
      'x-forwarded-for': address(),
    });
    expect(signedIn.status).toBe(303);
    const signInBack = await followToApp(signedIn, jar, h.origin);
    expect(new URLSearchParams(signInBack.appUrl!.hash.slice(1)).has('kc_action')).toBe(false);
    expect((await h.passwordGrant('ALICE@forum.local.', PASSWORD, { 'x-forwarded-for': address() })).status).toBe(200);

    const email = uniqueEmail('dotted');
    await h.realm.accounts.create({ email, password: PASSWORD, name: 'Dotted' });
    const formJar = new CookieJar();
    const form = await (await h.get(`${h.issuer}/login-actions/reset-credentials`, formJar)).text();
    await h.postForm(formAction(form), { csrf: formValue(form, 'csrf'), email: `${email.toUpperCase()}.` }, formJar, { 'x-forwarded-for': address() });
    expect(await mailboxLinkFor(email)).toMatch(/action-token\?key=/);

    const token = await tokenFor('admin@forum.local');
    const duplicate = await fetch(`${h.origin}/admin/realms/forum/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ email: 'Alice@Forum.local.', enabled: true, credentials: [{ type: 'password', value: PASSWORD }] }),
    });
    expect(duplicate.status).toBe(409);
    const found = await fetch(`${h.origin}/admin/realms/forum/users?email=${encodeURIComponent(' ALICE@forum.local. ')}`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await found.json()) as Array<{ email: string }>).map((user) => user.email)).toEqual(['alice@forum.local']);
  });

  it('stores addresses written before normalisation in their normal form at the next start, unless another account holds it', async () => {
    const tag = randomBytes(3).toString('hex');
    const insert = (email: string, age: string) =>
      h.db.raw(`INSERT INTO identity.accounts (id, email, name, password_hash, created_at) VALUES (gen_random_uuid(), ?, 'Old', '', now() - ?::interval)`, [email, age]);
    await insert(`dot-${tag}@forum.local.`, '2 days');
    await insert(`nfd-${tag}-e\u0301@forum.local`, '2 days');
    await insert(`nfd-${tag}-e\u0301@forum.local.`, '1 day');
    await insert(`taken-${tag}@forum.local`, '2 days');
    await insert(`taken-${tag}@forum.local.`, '1 day');
    // a database from before the rewrite: without the row that says it was done
    await h.db.raw(`DELETE FROM identity.migrations WHERE name = 'emails-normalized'`);
    await h.restart({ trustProxy: ONE_PROXY });
    const emails = ((await h.db.withSchema('identity').from('accounts').whereLike('email', `%${tag}%`).orderBy('email').pluck('email')) as string[]).sort();
    expect(emails).toEqual(
      [`dot-${tag}@forum.local`, `nfd-${tag}-\u00e9@forum.local`, `nfd-${tag}-e\u0301@forum.local.`, `taken-${tag}@forum.local`, `taken-${tag}@forum.local.`].sort(),
    );
  });
});

describe('forgot password', () => {
  async function requestReset(email: string, jar = new CookieJar(), from = address()) {
    const form = await h.get(`${h.issuer}/login-actions/reset-credentials`, jar);
    expect(form.status).toBe(200);
    const html = await form.text();
    return h.postForm(formAction(html), { csrf: formValue(html, 'csrf'), email }, jar, { 'x-forwarded-for': from });
  }

  it('mails a one-time link (development mailbox), the new password replaces the old one, sessions end, the link works once', async () => {
    const email = uniqueEmail('forgetful');
    await h.realm.accounts.create({ email, password: PASSWORD, name: 'Forgetful' });
    // a browser session with a refresh token, to see it end
    const browser = new CookieJar();
    const signIn = await openLoginPage(browser);
    const signedIn = await h.postForm(formAction(signIn.html), { csrf: formValue(signIn.html, 'csrf'), email, password: PASSWORD }, browser, { 'x-forwarded-for': address() });
    const back = await followToApp(signedIn, browser, h.origin);
    const before = await exchangeCode(h, codeOf(back.appUrl!, signIn.request), signIn.request);

    // from the login page's link
    const jar = new CookieJar();
    const login = await openLoginPage(jar);
    const forgotHref = /href="([^"]+)">Forgot password\?<\/a>/.exec(login.html)![1]!.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c)));
    const forgot = await h.get(forgotHref, jar);
    const forgotHtml = await forgot.text();
    expect(forgot.headers.getSetCookie().join('\n')).toMatch(/forum_idp_csrf=[\w-]+; Path=\/realms\/forum; Max-Age=\d+; HttpOnly; SameSite=Lax/);
    const sent = await h.postForm(formAction(forgotHtml), { csrf: formValue(forgotHtml, 'csrf'), email, interaction: formValue(forgotHtml, 'interaction') }, jar, {
      'x-forwarded-for': address(),
    });
    expect(sent.status).toBe(200);
    const sentHtml = await sent.text();
    expect(sentHtml).toContain(RESET_SENT_MESSAGE);
    expect(sentHtml).toContain(RESET_NEUTRAL_MESSAGE);

    const mailbox = await (await h.get(`${h.issuer}/mailbox`)).text();
    expect(mailbox).toContain('For development only.');
    const link = await mailboxLinkFor(email);
    expect(link).toMatch(new RegExp(`^${h.issuer}/login-actions/action-token\\?key=[\\w-]{43}$`));
    // only a hash of the token is stored
    const key = new URL(link).searchParams.get('key')!;
    const stored = await h.db.withSchema('identity').from('action_tokens').select('token_hash');
    expect(stored.some((row: { token_hash: string }) => row.token_hash.includes(key))).toBe(false);

    const resetJar = new CookieJar();
    const resetPage = await h.get(link, resetJar);
    expect(resetPage.status).toBe(200);
    const resetHtml = await resetPage.text();
    expect(resetHtml).toContain(email);
    const action = formAction(resetHtml);
    const csrf = formValue(resetHtml, 'csrf');
    expect((await refusedTo(action, { csrf, key, password: 'weak', 'password-confirm': 'weak' }, resetJar)).href).toBe(link);
    // the same rules as registration, and the confirmation
    for (const { password, message } of BREAKING) {
      const weak = await h.postForm(action, { csrf, key, password, 'password-confirm': password }, resetJar);
      expect(weak.status).toBe(400);
      expect(fieldErrorOf(await weak.text(), 'password')).toBe(message);
    }
    const mismatch = await h.postForm(action, { csrf, key, password: NEW_PASSWORD, 'password-confirm': PASSWORD }, resetJar);
    expect(fieldErrorOf(await mismatch.text(), 'password-confirm')).toBe(PASSWORD_MISMATCH_MESSAGE);
    // without the CSRF token: refused, nothing changes
    const forged = await h.postForm(action, { key, password: NEW_PASSWORD, 'password-confirm': NEW_PASSWORD }, resetJar);
    expect(forged.status).toBe(403);
    expect((await h.passwordGrant(email, PASSWORD, { 'x-forwarded-for': address() })).status).toBe(200);

    const done = await h.postForm(action, { csrf, key, password: NEW_PASSWORD, 'password-confirm': NEW_PASSWORD }, resetJar);
    expect(done.status).toBe(200);
    const doneHtml = await done.text();
    expect(doneHtml).toContain('Your password has been updated');
    // the pending sign-in of the browser that asked is still there: the page leads back to it
    expect(doneHtml).toContain(`href="${login.pageUrl}"`);

    const old = await h.passwordGrant(email, PASSWORD, { 'x-forwarded-for': address() });
    expect(old.status).toBe(400);
    expect(((await old.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await h.passwordGrant(email, NEW_PASSWORD, { 'x-forwarded-for': address() })).status).toBe(200);

    // the refresh token and the browser session from before the reset are gone
    const refresh = await h.postForm(`${h.issuer}/protocol/openid-connect/token`, { grant_type: 'refresh_token', client_id: 'forum-web', refresh_token: before.refresh_token });
    expect(refresh.status).toBe(400);
    const silent = authorizationRequest(h, { extra: { prompt: 'none' } });
    const silentBack = await followToApp(await h.get(silent.url, browser), browser, h.origin);
    expect(new URLSearchParams(silentBack.appUrl!.hash.slice(1)).get('error')).toBe('login_required');

    // used: refused with a clear page, on GET and POST
    const reused = await h.get(link, new CookieJar());
    expect(reused.status).toBe(410);
    expect(await reused.text()).toContain('already been used');
    const reusedPost = await h.postForm(action, { csrf, key, password: 'Another#Pass1', 'password-confirm': 'Another#Pass1' }, resetJar);
    expect(reusedPost.status).toBe(410);
    expect((await h.passwordGrant(email, NEW_PASSWORD, { 'x-forwarded-for': address() })).status).toBe(200);
  });

  it('answers an unknown email exactly like a known one, and sends nothing', async () => {
    const known = uniqueEmail('known');
    await h.realm.accounts.create({ email: known, password: PASSWORD, name: 'Known' });
    const unknown = uniqueEmail('unknown');
    const a = await requestReset(known);
    const b = await requestReset(unknown);
    expect(a.status).toBe(200);
    expect(b.status).toBe(a.status);
    expect(await b.text()).toBe(await a.text());
    await mailboxLinkFor(known);
    await h.restart(); // closing the realm waits for the background work of both requests
    const mailbox = await (await h.get(`${h.issuer}/mailbox`)).text();
    expect(mailbox).not.toContain(unknown);
  });

  it('refuses an expired link and an unknown one with a clear page', async () => {
    const email = uniqueEmail('slow');
    await h.realm.accounts.create({ email, password: PASSWORD, name: 'Slow' });
    await requestReset(email);
    const link = await mailboxLinkFor(email);
    await h.db.withSchema('identity').from('action_tokens').update({ expires_at: h.db.raw("now() - interval '1 minute'") });
    const expired = await h.get(link);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('expired');
    const bogus = await h.get(`${h.issuer}/login-actions/action-token?key=${'A'.repeat(43)}`);
    expect(bogus.status).toBe(400);
    expect(await bogus.text()).toContain('not valid');
  });

  it('refuses a forgot-password form without its CSRF token', async () => {
    const jar = new CookieJar();
    await h.get(`${h.issuer}/login-actions/reset-credentials`, jar);
    const res = await h.postForm(`${h.issuer}/login-actions/reset-credentials`, { email: 'alice@forum.local' }, jar);
    expect(res.status).toBe(403);
    // a token from another browser (other cookie) does not fit either
    const other = new CookieJar();
    const otherHtml = await (await h.get(`${h.issuer}/login-actions/reset-credentials`, other)).text();
    const crossed = await h.postForm(`${h.issuer}/login-actions/reset-credentials`, { email: 'alice@forum.local', csrf: formValue(otherHtml, 'csrf') }, jar);
    expect(crossed.status).toBe(403);
  });

  it('throttles forgot-password requests per client address', async () => {
    const from = address();
    for (let i = 0; i < 5; i++) expect((await requestReset(uniqueEmail('flood'), new CookieJar(), from)).status).toBe(200);
    const refused = await requestReset(uniqueEmail('flood'), new CookieJar(), from);
    expect(refused.status).toBe(429);
    expect(alertOf(await refused.text())).toMatch(/^Too many requests\. Try again in \d+ minutes?\.$/);
    expect((await requestReset(uniqueEmail('flood'), new CookieJar(), address())).status).toBe(200);
  });

  it('keeps the development mailbox to this machine', async () => {
    const res = await h.get(`${h.issuer}/mailbox`, undefined, { 'x-forwarded-for': '203.0.113.9' });
    expect(res.status).toBe(403);
  });
});

/** The sign-in back-off itself: throttle.int.test.ts (from real client addresses). */
describe('login form', () => {
  it('refuses a login form without its CSRF token', async () => {
    const jar = new CookieJar();
    const { pageUrl } = await openLoginPage(jar);
    const res = await h.postForm(pageUrl, { email: 'alice@forum.local', password: PASSWORD }, jar);
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
  });
});

describe('sessions', () => {
  it('keeps a browser session across a restart (prompt=none still gets a code)', async () => {
    const jar = new CookieJar();
    const { pageUrl, html, request } = await openLoginPage(jar);
    const res = await h.postForm(pageUrl, { csrf: formValue(html, 'csrf'), email: 'alice@forum.local', password: PASSWORD }, jar, { 'x-forwarded-for': address() });
    codeOf((await followToApp(res, jar, h.origin)).appUrl!, request);
    for (const cookie of res.headers.getSetCookie()) expect(cookie).toMatch(/httponly/i);

    await h.restart({ trustProxy: ONE_PROXY });
    const silent = authorizationRequest(h, { redirectUri: `${h.origin}/silent-check-sso.html`, extra: { prompt: 'none' } });
    const back = await followToApp(await h.get(silent.url, jar), jar, h.origin);
    const tokens = await exchangeCode(h, codeOf(back.appUrl!, silent), silent);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email: 'alice@forum.local' });
  });

  it('sends kc_idp_hint=google to the login page when Google is not configured', async () => {
    const jar = new CookieJar();
    const request = authorizationRequest(h, { extra: { kc_idp_hint: 'google' } });
    const start = await h.get(request.url, jar);
    expect(start.headers.get('location')).toMatch(/^\/realms\/forum\/login-actions\/authenticate\//);
  });
});

describe('admin API (Keycloak layout)', () => {
  const users = () => `${h.origin}/admin/realms/forum/users`;
  const post = (token: string | null, body: unknown) =>
    fetch(users(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const representation = (email: string, password: string, extra: Record<string, unknown> = {}) => ({
    username: email,
    email,
    firstName: 'Scripted',
    lastName: 'User',
    enabled: true,
    emailVerified: true,
    credentials: [{ type: 'password', value: password, temporary: false }],
    ...extra,
  });

  it('needs the bearer token of a realm admin', async () => {
    expect((await post(null, representation(uniqueEmail('x'), PASSWORD))).status).toBe(401);
    expect((await post('not.a.token', representation(uniqueEmail('x'), PASSWORD))).status).toBe(401);
    const user = await post(await tokenFor('alice@forum.local'), representation(uniqueEmail('x'), PASSWORD));
    expect(user.status).toBe(403);
    expect(await user.json()).toEqual({ error: 'HTTP 403 Forbidden' });
  });

  it('creates an account (201 + Location) that signs in; policy errors, duplicates and lookups like Keycloak', async () => {
    const token = await tokenFor('admin@forum.local');
    const email = uniqueEmail('scripted');
    for (const [i, { password, message }] of BREAKING.entries()) {
      const res = await post(token, representation(email, password));
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; errorMessage: string };
      expect(body.errorMessage).toBe(message);
      expect(body.error).toBe(
        ['invalidPasswordMinLengthMessage', 'invalidPasswordMinUpperCaseCharsMessage', 'invalidPasswordMinLowerCaseCharsMessage', 'invalidPasswordMinSpecialCharsMessage'][i],
      );
    }
    const created = await post(token, representation(email, PASSWORD, { attributes: { picture: ['https://example.test/s.png'] } }));
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${h.origin}/admin/realms/forum/users/[0-9a-f-]{36}$`));

    const duplicate = await post(token, representation(email.toUpperCase(), PASSWORD));
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toEqual({ errorMessage: 'User exists with same email' });

    const verify = createTokenVerifier({ issuer: h.issuer, audience: AUDIENCE });
    expect(await verify(await tokenFor(email))).toMatchObject({ email, name: 'Scripted User', picture: 'https://example.test/s.png', roles: ['user'] });

    const found = await fetch(`${users()}?email=${encodeURIComponent(email)}`, { headers: { authorization: `Bearer ${token}` } });
    expect(found.status).toBe(200);
    const list = (await found.json()) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: location.split('/').at(-1), username: email, email, enabled: true, emailVerified: true, firstName: 'Scripted User' });
    const none = await fetch(`${users()}?email=${encodeURIComponent(uniqueEmail('nobody'))}`, { headers: { authorization: `Bearer ${token}` } });
    expect(await none.json()).toEqual([]);
    const one = await fetch(location, { headers: { authorization: `Bearer ${token}` } });
    expect(((await one.json()) as { email: string }).email).toBe(email);

    // Keycloak makes a user without `enabled: true` disabled
    const disabled = uniqueEmail('disabled');
    expect((await post(token, representation(disabled, PASSWORD, { enabled: undefined }))).status).toBe(201);
    const refused = await h.passwordGrant(disabled, PASSWORD, { 'x-forwarded-for': address() });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error_description: string }).error_description).toBe('Account disabled');
  });

  it('fits a long name to the name policy by characters (an emoji is never cut in half)', async () => {
    const token = await tokenFor('admin@forum.local');
    for (const [firstName, kept] of [
      ['😀'.repeat(60), `${'😀'.repeat(60)} ${'🎉'.repeat(39)}`],
      [`A${'😀'.repeat(60)}`, `A${'😀'.repeat(60)} ${'🎉'.repeat(38)}`],
    ]) {
      const email = uniqueEmail('emoji');
      const created = await post(token, representation(email, PASSWORD, { firstName, lastName: '🎉'.repeat(60) }));
      expect(created.status, await created.clone().text()).toBe(201);
      const found = await fetch(`${users()}?email=${encodeURIComponent(email)}`, { headers: { authorization: `Bearer ${token}` } });
      const [user] = (await found.json()) as Array<{ firstName: string }>;
      expect(user!.firstName).toBe(kept);
    }
  });

  it('refuses a picture the forum would not show (error-invalid-uri)', async () => {
    const token = await tokenFor('admin@forum.local');
    for (const picture of ['http://example.test/p.png', `${h.origin}/p.png`]) {
      const res = await post(token, representation(uniqueEmail('photo'), PASSWORD, { attributes: { picture: [picture] } }));
      expect(res.status, picture).toBe(400);
      expect(await res.json()).toMatchObject({ field: 'picture', error: 'error-invalid-uri' });
    }
  });
});

describe('housekeeping', () => {
  it('drops expired rate-limit rows, broker states and old development mail', async () => {
    await h.db.raw(`INSERT INTO identity.rate_limits (key, points, expire) VALUES ('test:old', 3, ?), ('test:live', 1, ?)`, [Date.now() - 2 * 3_600_000, Date.now() + 60_000]);
    await h.db.raw(`INSERT INTO identity.mailbox (recipient, subject, body, created_at) VALUES ('old@forum.local', 'old', 'old', now() - interval '2 days')`);
    await h.db.raw(
      `INSERT INTO identity.broker_states (state_hash, provider, interaction_uid, code_verifier, nonce, expires_at) VALUES ('x', 'google', 'u', 'v', 'n', now() - interval '1 minute')`,
    );
    await deleteExpired(h.db);
    await deleteExpiredLimits(h.db);
    await deleteExpiredBrokerStates(h.db);
    await deleteOldMail(h.db);
    const keys = (await h.db.withSchema('identity').from('rate_limits').whereLike('key', 'test:%').pluck('key')) as string[];
    expect(keys).toEqual(['test:live']);
    expect(await h.db.withSchema('identity').from('mailbox').where({ recipient: 'old@forum.local' }).first()).toBeUndefined();
    expect(await h.db.withSchema('identity').from('broker_states').where({ state_hash: 'x' }).first()).toBeUndefined();
  });
});
