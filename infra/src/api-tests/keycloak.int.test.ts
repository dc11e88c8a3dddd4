import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { keycloakIdentityAdmin } from '@forum/command-service';
import type { Me, PostDetail } from '@forum/contracts';
import { arrayContaining, containerEngineMissing } from '@forum/platform/testing';
import { decodeJwt } from 'jose';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../testing/expect-status.ts';
import { minPositionHeaders, startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * identity/keycloak/forum-realm.json in a real Keycloak, and the forum trusting it: the realm is
 * imported (into KEYCLOAK_URL through its admin API, as a scratch realm removed afterwards; else into
 * a Keycloak container started with --import-realm, which also resolves the file's ${…} placeholders
 * from its environment; else the file is skipped, saying what is missing), a member is created,
 * signs in with the password grant of forum-cli (turned on for this test realm only) and calls the
 * API of a forum whose OIDC_ISSUER is that realm.
 */

const IMAGE = 'quay.io/keycloak/keycloak:26.1.0';
const realmFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../identity/keycloak/forum-realm.json');
const keycloakUrl = process.env.KEYCLOAK_URL?.replace(/\/+$/, '');
const missing = keycloakUrl ? null : await containerEngineMissing();
if (missing)
  console.warn(
    `infra/src/api-tests/keycloak.int.test.ts skipped: no Keycloak server (set KEYCLOAK_URL, with KEYCLOAK_ADMIN / KEYCLOAK_ADMIN_PASSWORD) and ${missing}`,
  );

/** The export as a test realm: forum-cli on (the password grant is for tests only, docs/keycloak.md). */
function testRealm(text: string, name: string): Record<string, unknown> {
  const realm = JSON.parse(text) as { clients: { clientId: string; enabled: boolean }[] } & Record<string, unknown>;
  for (const client of realm.clients) if (client.clientId === 'forum-cli') client.enabled = true;
  return { ...realm, realm: name };
}

/** What Keycloak reads for the file's placeholders: test values, none of them a real credential. */
const PLACEHOLDERS: Record<string, string> = {
  GOOGLE_CLIENT_ID: 'test-google-client',
  GOOGLE_CLIENT_SECRET: 'test-google-secret',
  SMTP_HOST: 'smtp.invalid',
  SMTP_FROM: 'no-reply@forum.test',
  SMTP_USER: 'test',
  SMTP_PASSWORD: 'test',
};
const ADMIN = { username: process.env.KEYCLOAK_ADMIN ?? 'admin', password: process.env.KEYCLOAK_ADMIN_PASSWORD ?? 'admin' };

describe.skipIf(missing !== null)(`the forum behind Keycloak (${keycloakUrl ? 'KEYCLOAK_URL' : IMAGE})`, () => {
  let container: StartedTestContainer | null = null;
  let base: string;
  let realmName: string;
  let issuer: string;
  let adminToken: string;
  let forum: TestForum | undefined;
  const member = { email: `kc-${randomBytes(4).toString('hex')}@forum.test`, password: 'Forum#2026', firstName: 'Kay', lastName: 'Cloak' };

  const admin = (route: string, init: RequestInit = {}) =>
    fetch(`${base}/admin/realms/${realmName}${route}`, {
      ...init,
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json', ...init.headers },
    });
  const passwordGrant = (username: string, password: string) =>
    fetch(`${issuer}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username, password, scope: 'openid' }),
    });

  beforeAll(async () => {
    const text = readFileSync(realmFile, 'utf8');
    if (keycloakUrl) {
      base = keycloakUrl;
      realmName = `forum-check-${randomBytes(4).toString('hex')}`;
    } else {
      realmName = 'forum';
      container = await new GenericContainer(IMAGE)
        .withCommand(['start-dev', '--import-realm'])
        .withEnvironment({ KC_BOOTSTRAP_ADMIN_USERNAME: ADMIN.username, KC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password, ...PLACEHOLDERS })
        .withCopyContentToContainer([{ content: JSON.stringify(testRealm(text, realmName)), target: '/opt/keycloak/data/import/forum-realm.json' }])
        .withExposedPorts(8080)
        .withWaitStrategy(Wait.forHttp(`/realms/${realmName}/.well-known/openid-configuration`, 8080).forStatusCode(200))
        .withStartupTimeout(240_000)
        .start();
      base = `http://${container.getHost()}:${container.getMappedPort(8080)}`;
    }
    issuer = `${base}/realms/${realmName}`;
    const token = await fetch(`${base}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', ...ADMIN }),
    });
    expect(token.status, 'admin sign-in at the master realm').toBe(200);
    adminToken = ((await token.json()) as { access_token: string }).access_token;
    if (keycloakUrl) {
      // the admin API does not resolve ${ENV} placeholders (an import at start does): fill them in here
      const filled = text.replace(/\$\{([A-Z0-9_]+)\}/g, (_, variable: string) => PLACEHOLDERS[variable] ?? `test-${variable.toLowerCase()}`);
      const created = await fetch(`${base}/admin/realms`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(testRealm(filled, realmName)),
      });
      expect(created.status, await created.clone().text()).toBe(201);
    }
    const user = await admin('/users', {
      method: 'POST',
      body: JSON.stringify({
        username: member.email,
        email: member.email,
        emailVerified: true,
        enabled: true,
        firstName: member.firstName,
        lastName: member.lastName,
        credentials: [{ type: 'password', value: member.password, temporary: false }],
      }),
    });
    expect(user.status, await user.clone().text()).toBe(201);
    // the member's address is verified, and it is in ADMIN_EMAILS: the forum makes them an admin
    forum = await startTestForum({ OIDC_ISSUER: issuer, ADMIN_EMAILS: member.email });
  }, 300_000);

  afterAll(async () => {
    await forum?.stop();
    if (keycloakUrl && adminToken) await admin('', { method: 'DELETE' });
    await container?.stop();
  });

  it('imports the clients: PKCE on the browser ones, the audience mapper on each, forum-cli off in the export', async () => {
    const clients = (await (await admin('/clients')).json()) as {
      clientId: string;
      publicClient: boolean;
      attributes?: Record<string, string>;
      protocolMappers?: { protocolMapper: string; config: Record<string, string> }[];
    }[];
    for (const id of ['forum-web', 'admin-web', 'forum-cli']) {
      const client = clients.find((c) => c.clientId === id);
      expect(client?.publicClient, id).toBe(true);
      expect(client?.protocolMappers?.find((m) => m.protocolMapper === 'oidc-audience-mapper')?.config['included.custom.audience'], id).toBe('urn:forum:api');
      if (id !== 'forum-cli') expect(client?.attributes?.['pkce.code.challenge.method'], id).toBe('S256');
    }
  });

  it('imports the roles, email verification, brute-force protection and the Google provider with its credentials from the environment', async () => {
    const realm = (await (await admin('')).json()) as Record<string, unknown>;
    expect(realm).toMatchObject({
      verifyEmail: true,
      bruteForceProtected: true,
      registrationAllowed: true,
      passwordPolicy: 'length(8) and upperCase(1) and lowerCase(1) and specialChars(1)',
    });
    const roles = ((await (await admin('/roles')).json()) as { name: string }[]).map((r) => r.name);
    expect(roles).toEqual(arrayContaining(['user', 'moderator', 'admin']));
    const google = (await (await admin('/identity-provider/instances/google')).json()) as {
      providerId: string;
      trustEmail: boolean;
      config: Record<string, string>;
    };
    expect(google).toMatchObject({ providerId: 'google', trustEmail: true, config: { clientId: PLACEHOLDERS.GOOGLE_CLIENT_ID } });
  });

  it("signs a member in with the password grant: a token for the forum's audience, with their realm role and verified email", async () => {
    const answer = await passwordGrant(member.email, member.password);
    expect(answer.status, await answer.clone().text()).toBe(200);
    const claims = decodeJwt(((await answer.json()) as { access_token: string }).access_token);
    expect(claims.iss).toBe(issuer);
    expect([claims.aud].flat()).toContain('urn:forum:api');
    expect(claims).toMatchObject({ email: member.email, email_verified: true, realm_access: { roles: arrayContaining(['user']) } });
    expect((await passwordGrant(member.email, 'Wrong#2026')).status).toBe(401);
  });

  it('the forum takes the token: the member is registered, an admin by ADMIN_EMAILS, writes a post and reads it back', async () => {
    const token = ((await (await passwordGrant(member.email, member.password)).json()) as { access_token: string }).access_token;
    const me = await expectStatus<Me>(forum!.api('/api/me', { token }), 200);
    expect(me).toMatchObject({ email: member.email, name: `${member.firstName} ${member.lastName}`, role: 'admin' });
    const created = await expectStatus<{ id: string; position: string }>(
      forum!.api('/api/posts', { method: 'POST', token, json: { title: 'Signed in at Keycloak', description: 'Through the realm export.', tags: [] } }),
      201,
    );
    const post = await expectStatus<PostDetail>(forum!.api(`/api/posts/${created.id}`, { token, headers: minPositionHeaders(created.position) }), 200);
    expect(post).toMatchObject({ title: 'Signed in at Keycloak', authorEmail: member.email });
  });

  it("the identity-admin port gives and takes the realm role moderator (the forum's copy), seen in the next tokens", async () => {
    const port = keycloakIdentityAdmin({ adminUrl: `${base}/admin/realms/${realmName}`, token: () => Promise.resolve(adminToken) });
    const [id] = await port.accountsByEmail(member.email);
    const roles = async () => {
      const answer = await passwordGrant(member.email, member.password);
      return (decodeJwt(((await answer.json()) as { access_token: string }).access_token) as { realm_access?: { roles?: string[] } }).realm_access?.roles ?? [];
    };
    await port.setModerator(id!, true);
    expect(await roles()).toEqual(arrayContaining(['user', 'moderator']));
    await port.setModerator(id!, false);
    expect(await roles()).not.toContain('moderator');
    // an account that is not there is left so
    await port.setModerator('00000000-0000-4000-8000-000000000000', true);
  });

  it("the identity-admin port reads an address's verification from Keycloak's user representation (emailVerified), as the mailer asks it", async () => {
    const port = keycloakIdentityAdmin({ adminUrl: `${base}/admin/realms/${realmName}`, token: () => Promise.resolve(adminToken) });
    const [verified] = await port.accountsByEmail(member.email);
    expect(await port.emailVerified(verified!)).toBe(true);
    const email = `kc-unverified-${randomBytes(4).toString('hex')}@forum.test`;
    const created = await admin('/users', { method: 'POST', body: JSON.stringify({ username: email, email, emailVerified: false, enabled: true }) });
    expect(created.status, await created.clone().text()).toBe(201);
    const [unverified] = await port.accountsByEmail(email);
    expect(await port.emailVerified(unverified!)).toBe(false);
    expect(await port.emailVerified(crypto.randomUUID())).toBe(false);
  });

  it("the forum refuses a token of another realm (the master realm's admin) and a request without one", async () => {
    expect((await forum!.api('/api/me', { token: adminToken })).status).toBe(401);
    expect((await forum!.api('/api/posts', { method: 'POST', json: { title: 'x', description: 'y', tags: [] } })).status).toBe(401);
  });
});
