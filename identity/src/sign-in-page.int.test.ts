import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { PASSWORD, address, openLoginPage, useAccountsRealm } from './flows-test-support.ts';
import { authorizationRequest, codeOf, CookieJar, exchangeCode, followToApp, formValue, ONE_PROXY, type Harness } from './test-support.ts';

let h: Harness;
useAccountsRealm((started) => (h = started));

describe('login form', () => {
  it('refuses a login form without its CSRF token', async () => {
    const jar = new CookieJar();
    const { pageUrl } = await openLoginPage(h, jar);
    const res = await h.postForm(pageUrl, { email: 'alice@forum.local', password: PASSWORD }, jar);
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
  });
});

describe('sessions', () => {
  it('keeps a browser session across a restart (prompt=none still gets a code)', async () => {
    const jar = new CookieJar();
    const { pageUrl, html, request } = await openLoginPage(h, jar);
    const res = await h.postForm(pageUrl, { csrf: formValue(html, 'csrf'), email: 'alice@forum.local', password: PASSWORD }, jar, {
      'x-forwarded-for': address(),
    });
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
