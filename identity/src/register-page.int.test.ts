import { decodeJwt } from 'jose';
import { PASSWORD_MISMATCH_MESSAGE, PASSWORD_RULES, REGISTER_ACTION } from '@forum/contracts';
import { createTokenVerifier } from '@forum/platform';
import { describe, expect, it } from 'vitest';
import { DUPLICATE_EMAIL_MESSAGE } from './messages.ts';
import { PASSWORD, address, BREAKING, tokenFor, openLoginPage, refusedTo, useAccountsRealm } from './flows-test-support.ts';
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
  openRegisterPage,
  uniqueEmail,
  type Harness,
} from './test-support.ts';

let h: Harness;
useAccountsRealm((started) => (h = started));

describe('register page', () => {
  it('is reached from keycloak-js register() and has the fields, the toggle, the inline checks and the brand', async () => {
    const jar = new CookieJar();
    const { html, page } = await openRegisterPage(h, jar);
    for (const field of ['name', 'handle', 'photo', 'email', 'password', 'password-confirm']) expect(html).toContain(`name="${field}"`);
    expect(html).toMatch(/<input id="email" name="email" type="email"[^>]* required/);
    expect(html).toMatch(/<input id="photo" name="photo" type="url"[^>]* required/);
    expect(html).toContain('id="toggle-password"');
    expect(html).toContain('class="brand"');
    expect(html).toContain('Forum');
    // the rules travel with the page, with the contracts' own messages (and the confirmation check)
    for (const rule of PASSWORD_RULES) expect(html).toContain(JSON.stringify(rule.message));
    expect(html).toContain(JSON.stringify(PASSWORD_MISMATCH_MESSAGE));
    // Google is not configured here: a disabled button, and why written under it
    expect(html).toMatch(/<button type="button" class="social" id="social-google" disabled aria-describedby="social-google-why">/);
    expect(html).toContain('<p class="social-why" id="social-google-why">Google sign-in is not configured on this server.</p>');
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
    expect((await refusedTo(h, pageUrl, { csrf, ...values, password: PASSWORD, 'password-confirm': `${PASSWORD}x` }, jar)).pathname).toBe(pageUrl);
    const mismatch = await h.postForm(pageUrl, { csrf, ...values, password: PASSWORD, 'password-confirm': `${PASSWORD}x` }, jar);
    expect(mismatch.status).toBe(400);
    const page = await mismatch.text();
    expect(fieldErrorOf(page, 'password')).toBeNull();
    expect(fieldErrorOf(page, 'password-confirm')).toBe(PASSWORD_MISMATCH_MESSAGE);
    expect(page).not.toContain(PASSWORD);
    // required fields and their shape
    const empty = await (
      await h.postForm(pageUrl, { csrf, name: '', photo: 'javascript:alert(1)', email: 'nope', password: '', 'password-confirm': '' }, jar)
    ).text();
    expect(fieldErrorOf(empty, 'name')).toBe('Name is required.');
    expect(fieldErrorOf(empty, 'photo')).toBe('Use an https:// address');
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
      {
        csrf: formValue(html, 'csrf'),
        name: 'New Bie',
        photo: 'https://example.test/newbie.png',
        email: email.toUpperCase(),
        password: PASSWORD,
        'password-confirm': PASSWORD,
      },
      jar,
    );
    expect(res.status).toBe(303);
    const back = await followToApp(res, jar, h.origin);
    const tokens = await exchangeCode(h, codeOf(back.appUrl!, request), request);
    expect(decodeJwt(tokens.id_token)).toMatchObject({ email, name: 'New Bie', picture: 'https://example.test/newbie.png', nonce: request.nonce });
    const verify = createTokenVerifier({ issuer: h.issuer, audience: AUDIENCE });
    expect(await verify(tokens.access_token)).toMatchObject({ email, name: 'New Bie', roles: ['user'] });
    expect(await verify(await tokenFor(h, email))).toMatchObject({ email });

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

  it('takes an optional handle (the forum’s rules and messages), stores it and puts it in the tokens as the claim `handle`', async () => {
    const jar = new CookieJar();
    const { request, pageUrl, html } = await openRegisterPage(h, jar);
    expect(html).toMatch(/<input id="handle" name="handle" type="text" autocomplete="nickname" aria-describedby="handle-help handle-error" maxlength="20"/);
    expect(/<input id="handle"[^>]*>/.exec(html)![0]).not.toContain('required');
    const values = { csrf: formValue(html, 'csrf'), name: 'Han Dle', photo: 'https://example.test/h.png', password: PASSWORD, 'password-confirm': PASSWORD };
    for (const [handle, message] of [
      ['ab', 'Handle must be at least 3 characters'],
      ['han..dle', 'Handle may use letters a-z, digits and _, with single . or - between them (not first or last)'],
      ['Admin', 'Handle is reserved: choose another'],
    ] as const) {
      const email = uniqueEmail('handle-refused');
      const refused = await h.postForm(pageUrl, { ...values, email, handle }, jar, { 'x-forwarded-for': address() });
      expect(refused.status).toBe(400);
      const page = await refused.text();
      expect(fieldErrorOf(page, 'handle')).toBe(message);
      expect(formValue(page, 'handle')).toBe(handle);
      expect(await h.realm.accounts.findByEmail(email)).toBeNull();
    }
    const email = uniqueEmail('handle');
    const res = await h.postForm(pageUrl, { ...values, email, handle: 'Han.Dle' }, jar, { 'x-forwarded-for': address() });
    expect(res.status).toBe(303);
    const back = await followToApp(res, jar, h.origin);
    const tokens = await exchangeCode(h, codeOf(back.appUrl!, request), request);
    expect(decodeJwt(tokens.id_token)).toMatchObject({ email, handle: 'Han.Dle' });
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email, handle: 'Han.Dle' });
    expect(await h.realm.accounts.findByEmail(email)).toMatchObject({ handle: 'Han.Dle' });
  });

  it('leaves the handle to the forum when it is left empty: no claim', async () => {
    const jar = new CookieJar();
    const { request, pageUrl, html } = await openRegisterPage(h, jar);
    const email = uniqueEmail('no-handle');
    const form = {
      csrf: formValue(html, 'csrf'),
      name: 'No Handle',
      photo: 'https://example.test/n.png',
      email,
      handle: '',
      password: PASSWORD,
      'password-confirm': PASSWORD,
    };
    const back = await followToApp(await h.postForm(pageUrl, form, jar, { 'x-forwarded-for': address() }), jar, h.origin);
    const tokens = await exchangeCode(h, codeOf(back.appUrl!, request), request);
    expect(decodeJwt(tokens.access_token)).not.toHaveProperty('handle');
  });

  it("is reachable from the login page's Register link, keeping the pending sign-in", async () => {
    const jar = new CookieJar();
    const { request, html } = await openLoginPage(h, jar, authorizationRequest(h, { clientId: 'admin-web', redirectUri: `${h.origin}/admin/users?page=2` }));
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
    const form = {
      csrf: formValue(html, 'csrf'),
      name: 'Again',
      photo: 'https://example.test/a.png',
      email: 'alice@forum.local',
      password: PASSWORD,
      'password-confirm': PASSWORD,
    };
    const from = address();
    for (let i = 0; i < 10; i++) expect((await h.postForm(pageUrl, form, jar, { 'x-forwarded-for': from })).status).toBe(409);
    const refused = await h.postForm(pageUrl, form, jar, { 'x-forwarded-for': from });
    expect(refused.status).toBe(429);
    expect(alertOf(await refused.text())).toMatch(/^Too many requests\. Try again in \d+ minutes?\.$/);
    expect((await h.postForm(pageUrl, form, jar, { 'x-forwarded-for': address() })).status).toBe(409);
  });
});
