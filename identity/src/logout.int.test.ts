import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationRequest,
  codeOf,
  CookieJar,
  exchangeCode,
  followToApp,
  formAction,
  formValue,
  randomAddress,
  startHarness,
  type Harness,
  ONE_PROXY,
} from './test-support.ts';

/**
 * Signing out by link (RP-initiated logout). Without an id_token_hint of the session's own sign-in
 * the realm asks first (a link on another site must not sign anyone out); with it (keycloak-js
 * sends one) it signs out at once, as Keycloak does. The realm's script-bearing pages carry a CSP
 * that allows exactly their own scripts.
 */
const PASSWORD = 'Forum#2026';
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ trustProxy: ONE_PROXY });
  await h.realm.accounts.create({ email: 'alice@forum.local', password: PASSWORD, name: 'Alice' });
  await h.realm.accounts.create({ email: 'mallory@forum.local', password: PASSWORD, name: 'Mallory' });
});
afterAll(() => h?.close());

/** A browser signed in at the realm through the login page, with the tokens forum-web got. */
async function signedInBrowser(email: string) {
  const jar = new CookieJar();
  const request = authorizationRequest(h, { redirectUri: `${h.origin}/` });
  const pageUrl = (await h.get(request.url, jar)).headers.get('location')!;
  const html = await (await h.get(pageUrl, jar)).text();
  const res = await h.postForm(formAction(html), { csrf: formValue(html, 'csrf'), email, password: PASSWORD }, jar, { 'x-forwarded-for': randomAddress() });
  const tokens = await exchangeCode(h, codeOf((await followToApp(res, jar, h.origin)).appUrl!, request), request);
  return { jar, tokens };
}

/** Whether the browser's session at the realm is still there (a silent sign-in gets a code). */
async function stillSignedIn(jar: CookieJar) {
  const silent = authorizationRequest(h, { extra: { prompt: 'none' } });
  const back = await followToApp(await h.get(silent.url, jar), jar, h.origin);
  return new URLSearchParams(back.appUrl!.hash.slice(1)).has('code');
}

const logoutUrl = (params: Record<string, string>) => `${h.issuer}/protocol/openid-connect/logout?${new URLSearchParams(params).toString()}`;
const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

describe('signing out by link', () => {
  it('without an id_token_hint asks first: a page with a Sign out button and no script; only the button signs out', async () => {
    const { jar } = await signedInBrowser('alice@forum.local');
    const page = await h.get(logoutUrl({ client_id: 'forum-web', post_logout_redirect_uri: `${h.origin}/` }), jar);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<h1>Sign out</h1>');
    expect(html).toMatch(/<button type="submit" class="primary">Sign out<\/button>/);
    expect(html).not.toContain('<script');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await stillSignedIn(jar)).toBe(true);

    const confirmed = await h.postForm(formAction(html), { xsrf: formValue(html, 'xsrf'), logout: formValue(html, 'logout') }, jar);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${h.origin}/`);
    expect(await stillSignedIn(jar)).toBe(false);
  });

  it("asks too when the id_token_hint is someone else's (an attacker's own token in the link)", async () => {
    const { jar } = await signedInBrowser('alice@forum.local');
    const mallory = await signedInBrowser('mallory@forum.local');
    const page = await h.get(logoutUrl({ client_id: 'forum-web', id_token_hint: mallory.tokens.id_token }), jar);
    const html = await page.text();
    expect(html).toContain('<h1>Sign out</h1>');
    expect(html).not.toContain('<script');
    expect(await stillSignedIn(jar)).toBe(true);
  });

  it("with the session's own id_token_hint (keycloak-js) signs out at once: a page that submits itself, its script allowed by hash", async () => {
    const { jar, tokens } = await signedInBrowser('alice@forum.local');
    const page = await h.get(logoutUrl({ client_id: 'forum-web', post_logout_redirect_uri: `${h.origin}/`, id_token_hint: tokens.id_token }), jar);
    const html = await page.text();
    const script = /<script>([^<]*)<\/script>/.exec(html)![1]!;
    expect(script).toContain('.submit()');
    expect(page.headers.get('content-security-policy')).toContain(`script-src ${scriptHash(script)}`);
    const confirmed = await h.postForm(
      /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)![1]!,
      { xsrf: formValue(html, 'xsrf'), logout: 'yes' },
      jar,
    );
    expect(confirmed.headers.get('location')).toBe(`${h.origin}/`);
    expect(await stillSignedIn(jar)).toBe(false);
  });

  it('without a session answers with a page that carries a CSP allowing only its own script', async () => {
    const page = await h.get(logoutUrl({ client_id: 'forum-web', post_logout_redirect_uri: `${h.origin}/` }), new CookieJar());
    const html = await page.text();
    const script = /<script>([^<]*)<\/script>/.exec(html)![1]!;
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(scriptHash(script));
    expect(csp).not.toContain('unsafe-inline');
  });
});

describe("keycloak-js's third-party-cookie probe", () => {
  it('is served with a strict CSP that allows its own script by hash, and may be framed only by the forum', async () => {
    for (const step of ['step1', 'step2']) {
      const probe = await h.get(`${h.issuer}/protocol/openid-connect/3p-cookies/${step}.html`);
      const html = await probe.text();
      expect(html).toContain('"unsupported"');
      const script = /<script>([^<]*)<\/script>/.exec(html)![1]!;
      const csp = probe.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain(`script-src ${scriptHash(script)}`);
      expect(csp).toContain("frame-ancestors 'self'"); // the forum's apps share the realm's origin
      expect(probe.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});
