import { createKnex, createTokenVerifier, type Knex } from '@forum/platform';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@forum/platform/testing';
import { deleteExpired } from './adapter.ts';
import { createIdentityRealm } from './index.ts';
import { AUDIENCE, authorizationRequest, CookieJar, logger, startHarness, type Harness } from './test-support.ts';

const PASSWORD = 'Forum#2026';

let h: Harness;
let db: Knex;
let origin: string;
let issuer: string;
const get = (...args: Parameters<Harness['get']>) => h.get(...args);
const postForm = (...args: Parameters<Harness['postForm']>) => h.postForm(...args);
const tokenUrl = () => `${issuer}/protocol/openid-connect/token`;
const passwordGrant = (username: string, password: string) => h.passwordGrant(username, password);

beforeAll(async () => {
  h = await startHarness();
  ({ db, origin, issuer } = h);
  await h.realm.accounts.create({ email: 'Admin@Forum.local', password: PASSWORD, name: 'Admin', roles: ['admin'] });
  await h.realm.accounts.create({ email: 'alice@forum.local', password: PASSWORD, name: 'Alice', picture: 'https://example.test/alice.png' });
});

afterAll(() => h?.close());

describe('identity realm', () => {
  it('issues a verifiable JWT access token to forum-cli with the password grant', async () => {
    const res = await passwordGrant('admin@forum.local', PASSWORD);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(300);
    expect(typeof body.id_token).toBe('string');

    const verify = createTokenVerifier({ issuer, audience: AUDIENCE });
    const principal = await verify(String(body.access_token));
    expect(principal.email).toBe('admin@forum.local');
    expect(principal.name).toBe('Admin');
    expect(principal.username).toBe('admin@forum.local');
    expect([...principal.roles].sort()).toEqual(['admin', 'user']);
    expect(principal.subject).toMatch(/^[0-9a-f-]{36}$/);

    const claims = decodeJwt(String(body.access_token));
    expect(claims).toMatchObject({ iss: issuer, aud: AUDIENCE, azp: 'forum-cli', email_verified: false });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(300);
    expect(decodeJwt(String(body.id_token))).toMatchObject({ aud: 'forum-cli', email: 'admin@forum.local', name: 'Admin' });

    const alice = await verify(String(((await (await passwordGrant('ALICE@forum.local', PASSWORD)).json()) as { access_token: string }).access_token));
    expect(alice).toMatchObject({ email: 'alice@forum.local', name: 'Alice', picture: 'https://example.test/alice.png', roles: ['user'] });
  });

  it('refuses a wrong password like Keycloak: 400 invalid_grant and no token', async () => {
    for (const [username, password] of [
      ['alice@forum.local', 'Wrong#2026'],
      ['nobody@forum.local', PASSWORD],
    ] as const) {
      const res = await passwordGrant(username, password);
      expect(res.status).toBe(400);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.error).toBe('invalid_grant');
      expect(body.access_token).toBeUndefined();
    }
  });

  it('runs the authorization code + PKCE flow for forum-web through the login page', async () => {
    const jar = new CookieJar();
    // keycloak-js sends the current page as redirect_uri (not one of the registered exact URIs)
    const { url, verifier, state, nonce, redirectUri } = authorizationRequest(h, { redirectUri: `${origin}/posts/42?tab=comments` });
    const authorize = new URL(url);

    const start = await get(authorize.href, jar);
    expect(start.status).toBe(303);
    const loginUrl = start.headers.get('location')!;
    expect(loginUrl).toMatch(/^\/realms\/forum\/login-actions\/authenticate\/[\w-]+$/);

    const page = await get(loginUrl, jar);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('Forum');
    expect(html).toContain('Forgot password?');
    expect(html).toContain('Register');
    expect(html).toContain('id="toggle-password"');
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
    expect(action).toBe(loginUrl);

    const forged = await postForm(action, { csrf: 'forged', email: 'alice@forum.local', password: PASSWORD }, jar);
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();

    const wrong = await postForm(action, { csrf, email: 'alice@forum.local', password: 'Nope#2026' }, jar);
    expect(wrong.status).toBe(200);
    expect(await wrong.text()).toContain('Invalid email or password.');

    const submitted = await postForm(action, { csrf, email: 'alice@forum.local', password: PASSWORD }, jar);
    expect(submitted.status).toBe(303);
    const resume = await get(submitted.headers.get('location')!, jar);
    expect(resume.status).toBe(303);
    const callback = new URL(resume.headers.get('location')!);
    expect(`${callback.origin}${callback.pathname}${callback.search}`).toBe(redirectUri);
    const response = new URLSearchParams(callback.hash.slice(1));
    expect(response.get('state')).toBe(state);
    const code = response.get('code')!;
    expect(code).toBeTruthy();

    const exchange = await postForm(
      tokenUrl(),
      { grant_type: 'authorization_code', client_id: 'forum-web', code, redirect_uri: redirectUri, code_verifier: verifier },
      undefined,
      { origin },
    );
    expect(exchange.status).toBe(200);
    expect(exchange.headers.get('access-control-allow-origin')).toBe(origin);
    expect(exchange.headers.get('access-control-allow-credentials')).toBe('true');
    const tokens = (await exchange.json()) as { access_token: string; id_token: string; refresh_token: string };

    const verify = createTokenVerifier({ issuer, audience: AUDIENCE });
    expect(await verify(tokens.access_token)).toMatchObject({ email: 'alice@forum.local', name: 'Alice', roles: ['user'] });
    expect(decodeJwt(tokens.access_token)).toMatchObject({ azp: 'forum-web', realm_access: { roles: ['user'] } });
    expect(decodeJwt(tokens.id_token)).toMatchObject({
      aud: 'forum-web',
      nonce,
      email: 'alice@forum.local',
      name: 'Alice',
      picture: 'https://example.test/alice.png',
    });
    // keycloak-js decodes the refresh token as a JWT
    expect(decodeJwt(tokens.refresh_token)).toMatchObject({ typ: 'Refresh', azp: 'forum-web', iss: issuer });

    const userinfo = await get(`${issuer}/protocol/openid-connect/userinfo`, undefined, { authorization: `Bearer ${tokens.access_token}`, origin });
    expect(userinfo.status).toBe(200);
    expect(userinfo.headers.get('access-control-allow-credentials')).toBe('true');
    expect(await userinfo.json()).toMatchObject({ email: 'alice@forum.local', name: 'Alice', preferred_username: 'alice@forum.local' });

    const refreshed = await postForm(tokenUrl(), { grant_type: 'refresh_token', client_id: 'forum-web', refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(await verify(next.access_token)).toMatchObject({ email: 'alice@forum.local' });
    expect(next.refresh_token).not.toBe(tokens.refresh_token);

    // the SSO session is in place: a silent check (prompt=none) answers with a code straight away
    authorize.searchParams.set('prompt', 'none');
    authorize.searchParams.set('redirect_uri', `${origin}/silent-check-sso.html`);
    const silent = await get(authorize.href, jar);
    expect(silent.status).toBe(303);
    expect(new URLSearchParams(new URL(silent.headers.get('location')!).hash.slice(1)).get('code')).toBeTruthy();

    // logout as keycloak-js asks for it (with the session's id_token_hint): no confirmation screen, the page submits itself, then back to the app
    const logout = await get(
      `${issuer}/protocol/openid-connect/logout?client_id=forum-web&post_logout_redirect_uri=${encodeURIComponent(`${origin}/posts/42`)}&id_token_hint=${tokens.id_token}`,
      jar,
    );
    expect(logout.status).toBe(200);
    const logoutHtml = await logout.text();
    expect(logoutHtml).toContain('.submit()');
    const logoutAction = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(logoutHtml)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(logoutHtml)![1]!;
    const confirmed = await postForm(logoutAction, { xsrf, logout: 'yes' }, jar);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${origin}/posts/42`);
    const afterLogout = await get(authorize.href, jar);
    expect(new URLSearchParams(new URL(afterLogout.headers.get('location')!).hash.slice(1)).get('error')).toBe('login_required');
  });

  it('refuses redirect URIs outside the client origin and path prefix', async () => {
    const attempt = (clientId: string, redirectUri: string) => get(authorizationRequest(h, { clientId, redirectUri }).url);
    for (const [clientId, redirectUri] of [
      ['forum-web', 'http://evil.example/'],
      ['forum-web', `${origin}.evil.example/`],
      ['forum-web', `http://user@${origin.slice('http://'.length)}/`],
      ['forum-web', origin.replace('http:', 'https:') + '/'],
      ['admin-web', `${origin}/posts`],
      ['admin-web', `${origin}/admin/../posts`],
      ['admin-web', `${origin}/administrator`],
      ['forum-web', `${origin}/realms/forum/protocol/openid-connect/auth`],
    ] as const) {
      const res = await attempt(clientId, redirectUri);
      expect(res.status, `${clientId} ${redirectUri}`).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('redirect_uri');
    }
    const allowed = await attempt('admin-web', `${origin}/admin/users?page=2`);
    expect(allowed.status).toBe(303);
  });

  it("serves Keycloak's endpoint layout and keeps its keys across restarts", async () => {
    const discovery = await get(`${issuer}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    const doc = (await discovery.json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
      token_endpoint: `${issuer}/protocol/openid-connect/token`,
      userinfo_endpoint: `${issuer}/protocol/openid-connect/userinfo`,
      jwks_uri: `${issuer}/protocol/openid-connect/certs`,
      end_session_endpoint: `${issuer}/protocol/openid-connect/logout`,
    });
    const jwks = (await (await get(`${issuer}/protocol/openid-connect/certs`)).json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const probe = await get(`${issuer}/protocol/openid-connect/3p-cookies/step1.html`);
    expect(await probe.text()).toContain('"unsupported"');

    const before = ((await (await passwordGrant('alice@forum.local', PASSWORD)).json()) as { access_token: string }).access_token;
    await h.restart();
    const verify = createTokenVerifier({ issuer, audience: AUDIENCE });
    expect(await verify(before)).toMatchObject({ email: 'alice@forum.local' });
    const after = ((await (await passwordGrant('alice@forum.local', PASSWORD)).json()) as { access_token: string }).access_token;
    expect(await verify(after)).toMatchObject({ email: 'alice@forum.local' });
  });

  it('starts safely when two processes start at once on an empty database', async () => {
    const other = await createTestDatabase('identity');
    const knex = createKnex(other.url);
    try {
      const realms = await Promise.all([1, 2, 3].map(() => createIdentityRealm({ publicOrigin: origin, db: knex, logger, audience: AUDIENCE })));
      const secrets = await knex.withSchema('identity').from('secrets').select('name', 'value');
      expect(secrets.map((s: { name: string }) => s.name).sort()).toEqual(['cookie-keys', 'refresh-token-key', 'signing-keys', 'throttle-key']);
      await Promise.all(realms.map((r) => r.close()));
      expect(await deleteExpired(knex)).toBe(0);
    } finally {
      await knex.destroy();
      await other.drop();
    }
  });

  it('creates accounts with unique case-insensitive emails and the password rules', async () => {
    await expect(h.realm.accounts.create({ email: 'ALICE@forum.local', password: PASSWORD, name: 'Alice 2' })).rejects.toThrow(/already exists/);
    await expect(h.realm.accounts.create({ email: 'weak@forum.local', password: 'weakpass', name: 'Weak' })).rejects.toThrow();
    const { id } = await h.realm.accounts.create({ email: ' Bob@Forum.local ', password: PASSWORD, name: 'Bob' });
    expect(await h.realm.accounts.findByEmail('bob@FORUM.local')).toEqual({
      id,
      email: 'bob@forum.local',
      name: 'Bob',
      picture: '',
      handle: '',
      roles: ['user'],
    });
    expect(await h.realm.accounts.findByEmail('nobody@forum.local')).toBeNull();
    const stored = await db<{ id: string; password_hash: string }>('accounts').withSchema('identity').where({ id }).first('password_hash');
    expect(stored?.password_hash).toMatch(/^scrypt\$N=\d+,r=8,p=1\$/);
    expect(stored?.password_hash).not.toContain(PASSWORD);
  });
});
