import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationRequest,
  codeOf,
  CookieJar,
  exchangeCode,
  followToApp,
  formAction,
  formValue,
  ONE_PROXY,
  randomAddress,
  startHarness,
  type Harness,
} from './test-support.ts';

/**
 * Token revocation (RFC 7009) and introspection (RFC 7662) where Keycloak has them, through a
 * standard client (openid-client), which finds them in the discovery document.
 */
const PASSWORD = 'Forum#2026';
const RESOURCE_SERVER = { clientId: 'forum-api', clientSecret: 'a-secret-of-the-resource-server' };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ trustProxy: ONE_PROXY, confidentialClients: [RESOURCE_SERVER] });
  await h.realm.accounts.create({ email: 'alice@forum.local', password: PASSWORD, name: 'Alice' });
});
afterAll(() => h?.close());

/** openid-client configured for one of the realm's clients, from the realm's discovery document. */
const clientOf = (clientId: string, auth: oidc.ClientAuth = oidc.None(), secret?: string) =>
  oidc.discovery(new URL(h.issuer), clientId, secret, auth, { execute: [oidc.allowInsecureRequests] });

/** keycloak-js's sign-in as `clientId` through the login page: the tokens the app holds. */
async function signIn(clientId = 'forum-web', email = 'alice@forum.local') {
  const jar = new CookieJar();
  const request = authorizationRequest(h, { clientId, redirectUri: clientId === 'admin-web' ? `${h.origin}/admin/` : `${h.origin}/` });
  const html = await (await h.get((await h.get(request.url, jar)).headers.get('location')!, jar)).text();
  const res = await h.postForm(formAction(html), { csrf: formValue(html, 'csrf'), email, password: PASSWORD }, jar, { 'x-forwarded-for': randomAddress() });
  return exchangeCode(h, codeOf((await followToApp(res, jar, h.origin)).appUrl!, request), request);
}

const refusalOf = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => null,
    (failure: unknown) => failure as { error?: string; error_description?: string; status?: number; code?: string },
  );
  return error && { error: error.error, description: error.error_description, status: error.status, code: error.code };
};

describe('revocation', () => {
  it("is advertised in discovery at Keycloak's paths, and openid-client finds both endpoints", async () => {
    const config = await clientOf('forum-web');
    expect(config.serverMetadata()).toMatchObject({
      revocation_endpoint: `${h.issuer}/protocol/openid-connect/revoke`,
      introspection_endpoint: `${h.issuer}/protocol/openid-connect/token/introspect`,
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
  });

  it('a public client revokes its refresh token: it can no longer be refreshed, nor can the one before it', async () => {
    const config = await clientOf('forum-web');
    const first = await signIn();
    const refreshed = await oidc.refreshTokenGrant(config, first.refresh_token);
    await oidc.tokenRevocation(config, refreshed.refresh_token!, { token_type_hint: 'refresh_token' });
    expect(await refusalOf(oidc.refreshTokenGrant(config, refreshed.refresh_token!))).toMatchObject({ error: 'invalid_grant' });
    expect(await refusalOf(oidc.refreshTokenGrant(config, first.refresh_token))).toMatchObject({ error: 'invalid_grant' });
    // revoking it again, or a token the realm never issued, is no error (RFC 7009 §2.2)
    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    await oidc.tokenRevocation(config, 'not-a-token-of-this-realm');
  });

  it("refuses another client's refresh token (Unmatching clients) and leaves it working", async () => {
    const mine = await signIn('forum-web');
    expect(await refusalOf(oidc.tokenRevocation(await clientOf('admin-web'), mine.refresh_token))).toMatchObject({
      error: 'invalid_request',
      description: 'Unmatching clients',
    });
    expect((await oidc.refreshTokenGrant(await clientOf('forum-web'), mine.refresh_token)).access_token).toEqual(expect.any(String));
  });

  it('says an access token cannot be revoked (they are not stored and expire within minutes)', async () => {
    const { access_token } = await signIn();
    expect(await refusalOf(oidc.tokenRevocation(await clientOf('forum-web'), access_token, { token_type_hint: 'access_token' }))).toMatchObject({
      error: 'unsupported_token_type',
    });
  });

  it('refuses a request without a known client, or with two ways of authenticating, or a repeated parameter', async () => {
    const revoke = (body: Record<string, string> | string, headers: Record<string, string> = {}) =>
      fetch(`${h.issuer}/protocol/openid-connect/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(body),
      });
    const basic = `Basic ${Buffer.from('forum-api:wrong-secret').toString('base64')}`;
    for (const [res, status, error] of [
      [await revoke({ token: 'x' }), 401, 'invalid_client'],
      [await revoke({ token: 'x', client_id: 'nobody' }), 401, 'invalid_client'],
      [await revoke({ token: 'x' }, { authorization: basic }), 401, 'invalid_client'],
      [await revoke({ token: 'x', client_id: 'forum-web' }, { authorization: basic }), 401, 'invalid_client'],
      [await revoke({ client_id: 'forum-web' }), 400, 'invalid_request'],
      [await revoke('client_id=forum-web&token=a&token=b'), 400, 'invalid_request'],
    ] as const) {
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: string }).error).toBe(error);
    }
  });
});

describe('introspection', () => {
  const resourceServer = () => clientOf(RESOURCE_SERVER.clientId, oidc.ClientSecretBasic(RESOURCE_SERVER.clientSecret));

  it('tells a confidential client whether an access or refresh token is active, and says inactive once it is revoked', async () => {
    const tokens = await signIn();
    const config = await resourceServer();
    const access = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(access).toMatchObject({ active: true, client_id: 'forum-web', username: 'alice@forum.local', token_type: 'Bearer', iss: h.issuer });
    const refresh = await oidc.tokenIntrospection(config, tokens.refresh_token, { token_type_hint: 'refresh_token' });
    expect(refresh).toMatchObject({ active: true, client_id: 'forum-web', username: 'alice@forum.local', token_type: 'Refresh', sub: access.sub });

    await oidc.tokenRevocation(await clientOf('forum-web'), tokens.refresh_token);
    expect(await oidc.tokenIntrospection(config, tokens.refresh_token)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(config, 'not-a-token-of-this-realm')).toEqual({ active: false });
  });

  it("says inactive for a disabled account's tokens", async () => {
    await h.realm.accounts.create({ email: 'carol@forum.local', password: PASSWORD, name: 'Carol' });
    const tokens = await signIn('forum-web', 'carol@forum.local');
    await h.db.raw(`UPDATE identity.accounts SET enabled = false WHERE email = 'carol@forum.local'`);
    const config = await resourceServer();
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(config, tokens.refresh_token)).toEqual({ active: false });
  });

  it('refuses public clients as Keycloak does (403 "Client not allowed."), and a wrong secret (401)', async () => {
    const { access_token } = await signIn();
    expect(await refusalOf(oidc.tokenIntrospection(await clientOf('forum-web'), access_token))).toMatchObject({
      error: 'invalid_request',
      description: 'Client not allowed.',
      status: 403,
    });
    // a client that authenticated with HTTP Basic is challenged again (RFC 6749 §5.2)
    const wrong = await clientOf(RESOURCE_SERVER.clientId, oidc.ClientSecretBasic('not-the-secret'));
    expect(await refusalOf(oidc.tokenIntrospection(wrong, access_token))).toMatchObject({ status: 401, code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE' });
  });
});
