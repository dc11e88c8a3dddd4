import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessTokenVerifier } from './access-token.ts';
import { sendJson } from './http.ts';
import { idTokenClaims } from './provider.ts';
import type { AccountStore } from './store.ts';

/** The userinfo endpoint, answered by the realm itself (oidc-provider's rejects resource-server tokens). */
export function createUserinfo(accounts: AccountStore, verifyAccessToken: AccessTokenVerifier) {
  async function userinfo(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'GET' && req.method !== 'POST') {
      sendJson(res, 405, { error: 'invalid_request', error_description: 'method not allowed' }, { Allow: 'GET, POST' });
      return;
    }
    const challenge = (error: string, description: string) => ({
      'WWW-Authenticate': `Bearer realm="forum", error="${error}", error_description="${description}"`,
    });
    const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(String(req.headers.authorization ?? ''));
    if (!match) {
      sendJson(
        res,
        401,
        { error: 'invalid_request', error_description: 'Missing bearer token' },
        {
          'WWW-Authenticate': 'Bearer realm="forum"',
        },
      );
      return;
    }
    let subject: string;
    try {
      subject = (await verifyAccessToken(match[1]!)).subject;
    } catch {
      sendJson(res, 401, { error: 'invalid_token', error_description: 'Token verification failed' }, challenge('invalid_token', 'Token verification failed'));
      return;
    }
    const record = await accounts.findById(subject);
    if (!record) {
      sendJson(res, 401, { error: 'invalid_token', error_description: 'User not found' }, challenge('invalid_token', 'User not found'));
      return;
    }
    sendJson(res, 200, { ...idTokenClaims(record), realm_access: { roles: record.roles } });
  }
  return userinfo;
}
