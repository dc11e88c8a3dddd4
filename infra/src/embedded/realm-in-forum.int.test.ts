import { rawRequest } from '@forum/identity/testing';
import { createTokenVerifier } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realmLoginPage, startTestForum, type TestForum } from '../testing/index.ts';

/** The realm inside the whole forum: config wiring (ADMIN_EMAILS, GOOGLE_*) and the gateway's /admin/realms/forum mount. */
let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum({
    ADMIN_EMAILS: 'Boss@Forum.local, other@forum.local',
    GOOGLE_CLIENT_ID: 'configured.apps.example',
    GOOGLE_CLIENT_SECRET: 'not-used-in-this-test',
    INTROSPECTION_CLIENT_ID: 'forum-api',
    INTROSPECTION_CLIENT_SECRET: 'the-resource-servers-secret',
  });
});

afterAll(async () => {
  await forum?.stop();
});

describe('the realm in the forum', () => {
  it('serves the admin API at /admin/realms/forum (not the admin SPA); ADMIN_EMAILS made verified are admins from the start', async () => {
    const anonymous = await forum.api('/admin/realms/forum/users', { method: 'POST', json: {} });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/json/);

    const created = await forum.api('/admin/realms/forum/users', {
      method: 'POST',
      token: await forum.tokenFor('admin@forum.local'),
      json: {
        username: 'boss@forum.local',
        email: 'boss@forum.local',
        firstName: 'Big',
        lastName: 'Boss',
        enabled: true,
        emailVerified: true,
        credentials: [{ type: 'password', value: 'Boss#Pass1', temporary: false }],
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(new RegExp(`^${forum.url}/admin/realms/forum/users/[0-9a-f-]{36}$`));

    const verify = createTokenVerifier({ issuer: forum.issuer, audience: 'urn:forum:api' });
    const boss = await verify(await forum.tokenFor('boss@forum.local', 'Boss#Pass1'));
    expect([...boss.roles].sort()).toEqual(['admin', 'user']);
    expect(boss.name).toBe('Big Boss');
  });

  it('lets the confidential client of INTROSPECTION_CLIENT_ID/SECRET introspect a token, and no other client', async () => {
    const token = await forum.tokenFor('admin@forum.local');
    const introspect = (authorization: string) =>
      forum.api('/realms/forum/protocol/openid-connect/token/introspect', {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      });
    const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    const answer = await introspect(basic('forum-api', 'the-resource-servers-secret'));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ active: true, username: 'admin@forum.local', client_id: 'forum-cli' });
    expect((await introspect(basic('forum-api', 'another-secret-entirely'))).status).toBe(401);
  });

  it('shows Continue with Google as a link when GOOGLE_CLIENT_ID/SECRET are set', async () => {
    const page = await realmLoginPage(forum);
    expect(await page.text()).toMatch(/<a class="social" id="social-google" href="\/realms\/forum\/broker\/google\/login\?interaction=[\w-]+">/);
  });
});

describe("the realm behind the gateway and the request's Host", () => {
  const targets = [
    '/realms/forum/.well-known/openid-configuration',
    '/realms/forum/protocol/openid-connect/logout?client_id=forum-web',
    '/realms/forum/login-actions/reset-credentials',
    '/admin/realms/forum/users',
  ];

  it('a malformed Host is refused with 400 on its routes, never a 500', async () => {
    for (const target of targets) {
      for (const host of ['evil.example:abc', 'x y', '%', '[evil', ':3100', 'evil.example:99999', '']) {
        const answer = await rawRequest(forum.url, { target, host });
        expect(answer.status, `${target} Host: ${host}`).toBe(400);
      }
    }
  });

  it('a foreign Host or X-Forwarded-Host leaves every endpoint of the discovery document on the issuer', async () => {
    for (const lines of [[], ['X-Forwarded-Host: evil.example', 'X-Forwarded-Proto: https']]) {
      const answer = await rawRequest(forum.url, { target: targets[0]!, host: 'evil.example', lines });
      expect(answer.status).toBe(200);
      const document = JSON.parse(answer.body) as Record<string, unknown>;
      expect(document.issuer).toBe(forum.issuer);
      for (const [name, value] of Object.entries(document)) if (/(_endpoint|_uri)$/.test(name)) expect(value, name).toMatch(new RegExp(`^${forum.issuer}/`));
    }
  });
});

describe('the realm behind the gateway and a body too large', () => {
  it('answers 413 saying so, at the token endpoint and at the admin API', async () => {
    const twentyMb = 'x'.repeat(20 * 1024 * 1024);
    const token = await forum.api('/realms/forum/protocol/openid-connect/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=password&client_id=forum-cli&username=a&password=${twentyMb}`,
    });
    expect(token.status).toBe(413);
    expect(await token.json()).toEqual({ error: 'invalid_request', error_description: 'The request body is too large.' });
    const admin = await forum.api('/admin/realms/forum/users', {
      method: 'POST',
      token: await forum.tokenFor('admin@forum.local'),
      json: { firstName: twentyMb },
    });
    expect(admin.status).toBe(413);
    expect(await admin.json()).toEqual({ error: 'invalid_request', errorMessage: 'The request body is too large.' });
  });
});
