import type { Me } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationRequest, codeOf, CookieJar, exchangeCode, followToApp, formAction, formValue } from '@forum/identity/testing';
import { startTestForum, type TestForum } from '../testing/forum.ts';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(() => forum?.stop());

const origin = () => forum.url;
const issuer = () => forum.issuer;
const fetchManual = async (url: string, jar: CookieJar, init: RequestInit = {}) => {
  const res = await fetch(new URL(url, origin()), {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header },
  });
  jar.store(res);
  return res;
};

describe('a new user, through the whole forum', () => {
  it('registers on the register page, comes back signed in, and GET /api/me shows the profile they entered', async () => {
    const jar = new CookieJar();
    const request = authorizationRequest({ origin: origin(), issuer: issuer() }, { path: 'registrations', redirectUri: `${origin()}/about` });
    // keycloak-js register(): registrations endpoint → auth → the register page
    let res = await fetchManual(request.url, jar);
    while (res.status === 303 && !/login-actions\/registration/.test(res.headers.get('location') ?? ''))
      res = await fetchManual(res.headers.get('location')!, jar);
    const page = await fetchManual(res.headers.get('location')!, jar);
    const html = await page.text();
    expect(html).toContain('Create your account');

    const email = `newcomer-${Date.now()}@forum.test`;
    const submitted = await fetchManual(formAction(html), jar, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: formValue(html, 'csrf'),
        name: 'New Comer',
        photo: 'https://img.example/newcomer.png',
        email,
        password: 'Welcome#2026',
        'password-confirm': 'Welcome#2026',
      }).toString(),
    });
    const back = await followToApp(submitted, jar, origin());
    expect(back.appUrl?.pathname).toBe('/about'); // the page they came from
    const tokens = await exchangeCode(
      {
        issuer: issuer(),
        postForm: (url, form) =>
          fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }),
      },
      codeOf(back.appUrl!, request),
      request,
    );

    const me = await forum.api('/api/me', { token: tokens.access_token });
    expect(me.status).toBe(200);
    expect((await me.json()) as Me).toMatchObject({ name: 'New Comer', email, photoURL: 'https://img.example/newcomer.png', role: 'user', isMember: false });
    // and the password they chose signs them in for scripts too
    expect(await forum.tokenFor(email, 'Welcome#2026')).toBeTruthy();
  });
});
