import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Logger } from '@forum/platform';
import type { AccessTokenVerifier } from './access-token.ts';
import { sendJson } from './http.ts';
import type { ReadTokenRequest } from './token-request.ts';

/**
 * Token revocation (RFC 7009) at Keycloak's `/protocol/openid-connect/revoke`, for the client the
 * token was issued to (a public client names itself). A refresh token is revoked with everything its
 * sign-in gave that client (the grant: its refresh and access tokens, its codes), as Keycloak ends
 * the client's session. Access tokens are JWTs that are not stored: they cannot be revoked, they
 * expire (5 minutes); the refresh token is what a client revokes.
 */
export function createRevocation(provider: Provider, readRequest: ReadTokenRequest, verifyAccessToken: AccessTokenVerifier, log: Logger) {
  const revokeGrant = async (grantId: string) => {
    await Promise.all([
      provider.AccessToken.revokeByGrantId(grantId),
      provider.RefreshToken.revokeByGrantId(grantId),
      provider.AuthorizationCode.revokeByGrantId(grantId),
    ]);
    await (await provider.Grant.find(grantId))?.destroy();
  };

  return async function revocation(req: IncomingMessage, res: ServerResponse) {
    const request = await readRequest(req, res);
    if (!request) return;
    const done = () => {
      res.statusCode = 200;
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Length', '0');
      res.end();
    };
    const refresh = await provider.RefreshToken.find(request.token, { ignoreExpiration: true });
    if (refresh) {
      if (refresh.clientId !== request.clientId) {
        sendJson(res, 400, { error: 'invalid_request', error_description: 'Unmatching clients' });
        return;
      }
      await refresh.destroy();
      if (refresh.grantId) await revokeGrant(refresh.grantId);
      log.info({ clientId: request.clientId, accountId: refresh.accountId }, 'refresh token revoked');
      return done();
    }
    const access = await verifyAccessToken(request.token).then(
      () => true,
      () => false,
    );
    if (access) {
      sendJson(res, 400, {
        error: 'unsupported_token_type',
        error_description: 'Access tokens cannot be revoked: they expire within minutes. Revoke the refresh token.',
      });
      return;
    }
    // an unknown, expired or already revoked token: nothing to do, and nothing said about it (RFC 7009 §2.2)
    done();
  };
}
