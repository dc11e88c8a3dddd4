import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { AccessTokenVerifier } from './access-token.ts';
import { sendJson } from './http.ts';
import type { AccountStore } from './store.ts';
import type { ReadTokenRequest } from './token-request.ts';

/**
 * Token introspection (RFC 7662) at Keycloak's `/protocol/openid-connect/token/introspect`. As in
 * Keycloak, only a confidential client may ask (a public one is answered 403 "Client not allowed."):
 * the answer describes any of the realm's tokens, whoever it was issued to. A token is active while
 * it verifies (an access token: signature, issuer, audience, expiry; a refresh token: stored, not
 * revoked nor expired) and its account exists and is enabled; anything else is `{"active": false}`.
 */
export function createIntrospection(provider: Provider, readRequest: ReadTokenRequest, verifyAccessToken: AccessTokenVerifier, accounts: AccountStore) {
  const activeAccount = async (id: string | undefined) => {
    const record = id ? await accounts.findById(id) : null;
    return record?.enabled ? record : null;
  };

  async function describe(token: string): Promise<Record<string, unknown>> {
    const refresh = await provider.RefreshToken.find(token);
    if (refresh) {
      const account = await activeAccount(refresh.accountId);
      const grant = refresh.grantId ? await provider.Grant.find(refresh.grantId) : undefined;
      if (!account || !grant || refresh.isExpired || refresh.consumed) return { active: false };
      return {
        active: true,
        token_type: 'Refresh',
        typ: 'Refresh',
        iss: provider.issuer,
        sub: account.id,
        username: account.email,
        client_id: refresh.clientId,
        azp: refresh.clientId,
        scope: refresh.scope,
        sid: refresh.sid,
        iat: refresh.iat,
        exp: refresh.exp,
      };
    }
    const access = await verifyAccessToken(token).catch(() => null);
    if (!access || !(await activeAccount(access.subject))) return { active: false };
    // verified just now: its claims are the realm's own
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    return { ...claims, active: true, token_type: 'Bearer', client_id: claims.azp, username: access.username };
  }

  return async function introspection(req: IncomingMessage, res: ServerResponse) {
    const request = await readRequest(req, res);
    if (!request) return;
    if (!request.confidential) {
      sendJson(res, 403, { error: 'invalid_request', error_description: 'Client not allowed.' });
      return;
    }
    sendJson(res, 200, await describe(request.token));
  };
}
