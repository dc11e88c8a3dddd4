import { createTokenVerifier, UnauthenticatedError } from '@forum/platform';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIENCE, startHarness, uniqueEmail, type Harness } from './test-support.ts';

/** The realm's service account: Keycloak's confidential client with the client-credentials grant, for the admin API only. */
const SERVICE_ACCOUNT = { clientId: 'forum-identity-admin', clientSecret: 'a-secret-of-the-test-0123456789' };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ serviceAccount: SERVICE_ACCOUNT });
});
afterAll(async () => {
  await h?.close();
});

const tokenUrl = () => `${h.issuer}/protocol/openid-connect/token`;
const askToken = (form: Record<string, string>) =>
  fetch(tokenUrl(), { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', ...form }) });
const serviceToken = async () => {
  const answer = await askToken({ client_id: SERVICE_ACCOUNT.clientId, client_secret: SERVICE_ACCOUNT.clientSecret });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
};
const admin = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${h.origin}/admin/realms/forum${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

describe("the realm's service account (Keycloak's client-credentials grant)", () => {
  it("gets a token for the admin API with realm-management's roles, as Keycloak's service account carries them", async () => {
    const claims = decodeJwt(await serviceToken());
    expect(claims).toMatchObject({
      iss: h.issuer,
      aud: `${h.origin}/admin/realms/forum`,
      sub: SERVICE_ACCOUNT.clientId,
      client_id: SERVICE_ACCOUNT.clientId,
      preferred_username: `service-account-${SERVICE_ACCOUNT.clientId}`,
      resource_access: { 'realm-management': { roles: ['view-users', 'manage-users'] } },
    });
    expect(claims.realm_access).toBeUndefined();
    expect(claims.email).toBeUndefined();
  });

  it('finds the accounts an email names and removes an account through the admin API', async () => {
    const email = uniqueEmail('found');
    const { id } = await h.realm.accounts.create({ email, password: 'Forum#2026', name: 'Found' });
    const token = await serviceToken();
    const found = await admin(`/users?${new URLSearchParams({ email, exact: 'true', briefRepresentation: 'true' }).toString()}`, token);
    expect(found.status).toBe(200);
    expect(((await found.json()) as { id: string }[]).map((user) => user.id)).toEqual([id]);
    expect((await admin(`/users/${id}`, token, { method: 'DELETE' })).status).toBe(204);
    expect(await h.realm.accounts.findByEmail(email)).toBeNull();
  });

  it('refuses a wrong secret, and the grant to any other client', async () => {
    const wrong = await askToken({ client_id: SERVICE_ACCOUNT.clientId, client_secret: 'not-the-secret-of-the-client' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_client');
    const publicClient = await askToken({ client_id: 'forum-cli' });
    expect(publicClient.status).toBe(400);
    expect(await publicClient.json()).toEqual({ error: 'invalid_request', error_description: 'requested grant type is not allowed for this client' });
  });

  it("is no member's token: the forum's audience refuses it, and the service account cannot ask for that audience", async () => {
    const verifyForumToken = createTokenVerifier({ issuer: h.issuer, audience: AUDIENCE });
    await expect(verifyForumToken(await serviceToken())).rejects.toBeInstanceOf(UnauthenticatedError);
    const forApi = await askToken({ client_id: SERVICE_ACCOUNT.clientId, client_secret: SERVICE_ACCOUNT.clientSecret, resource: AUDIENCE });
    expect(forApi.status).toBe(400);
    expect(((await forApi.json()) as { error: string }).error).toBe('invalid_target');
  });
});

describe('a realm without a service account', () => {
  it('offers no client-credentials grant', async () => {
    const plain = await startHarness();
    try {
      const answer = await fetch(`${plain.issuer}/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: SERVICE_ACCOUNT.clientId, client_secret: SERVICE_ACCOUNT.clientSecret }),
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    } finally {
      await plain.close();
    }
  });
});
