import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Imports identity/keycloak/forum-realm.json into a real Keycloak under a scratch realm name and reads
 * it back through the admin API. Runs only with KEYCLOAK_URL (e.g. http://localhost:8080) and an
 * admin of the master realm (KEYCLOAK_ADMIN / KEYCLOAK_ADMIN_PASSWORD, default admin / admin).
 */

const keycloakUrl = process.env.KEYCLOAK_URL?.replace(/\/+$/, '');
if (!keycloakUrl) console.warn('identity/src/keycloak-export.int.test.ts skipped: no Keycloak server (set KEYCLOAK_URL to run)');

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../keycloak/forum-realm.json');

describe.skipIf(!keycloakUrl)('forum-realm.json imported into Keycloak', () => {
  const name = `forum-check-${randomBytes(4).toString('hex')}`;
  let adminToken: string;
  const admin = (route: string, init: RequestInit = {}) =>
    fetch(`${keycloakUrl}/admin/realms${route}`, {
      ...init,
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    const token = await fetch(`${keycloakUrl}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'admin-cli',
        username: process.env.KEYCLOAK_ADMIN ?? 'admin',
        password: process.env.KEYCLOAK_ADMIN_PASSWORD ?? 'admin',
      }),
    });
    expect(token.status, 'admin sign-in at the master realm').toBe(200);
    adminToken = ((await token.json()) as { access_token: string }).access_token;

    // the admin API does not resolve ${ENV} placeholders (kc.sh import does): fill them in here
    const text = readFileSync(file, 'utf8').replace(/\$\{([A-Z0-9_]+)\}/g, (_, variable: string) => `check-${variable.toLowerCase()}`);
    const realm = { ...(JSON.parse(text) as Record<string, unknown>), realm: name };
    const created = await admin('', { method: 'POST', body: JSON.stringify(realm) });
    expect(created.status, await created.clone().text()).toBe(201);
  });

  afterAll(async () => {
    if (adminToken) await admin(`/${name}`, { method: 'DELETE' });
  });

  it('has the three clients, PKCE on the browser ones and the audience mapper on each', async () => {
    const clients = (await (await admin(`/${name}/clients`)).json()) as {
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

  it('has the roles, the password policy, brute-force protection and the Google provider', async () => {
    const realm = (await (await admin(`/${name}`)).json()) as Record<string, unknown>;
    expect(realm).toMatchObject({ passwordPolicy: 'length(8) and upperCase(1) and lowerCase(1) and specialChars(1)', bruteForceProtected: true, registrationAllowed: true });
    const roles = ((await (await admin(`/${name}/roles`)).json()) as { name: string }[]).map((r) => r.name);
    expect(roles).toEqual(expect.arrayContaining(['user', 'admin']));
    const google = (await (await admin(`/${name}/identity-provider/instances/google`)).json()) as { providerId: string; trustEmail: boolean };
    expect(google).toMatchObject({ providerId: 'google', trustEmail: true });
  });
});
