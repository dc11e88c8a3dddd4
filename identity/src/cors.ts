import type { IncomingMessage, ServerResponse } from 'node:http';
import { appendVary } from './http.ts';
import { OIDC } from './paths.ts';

/** Endpoints browsers call cross-origin with credentials (keycloak-js uses XHR with credentials). */
const CREDENTIALED_CORS_PATHS = new Set([`${OIDC}/token`, `${OIDC}/revoke`, `${OIDC}/userinfo`, `${OIDC}/certs`, '/.well-known/openid-configuration']);

export function createCors(allowedOrigins: ReadonlySet<string>) {
  /** Answers CORS for the allowed origins with credentials; true when the request (a preflight) is done. */
  function cors(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    const origin = req.headers.origin;
    if (!origin || !CREDENTIALED_CORS_PATHS.has(path) || !allowedOrigins.has(origin)) return false;
    appendVary(res, 'Origin');
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      const asked = String(req.headers['access-control-request-headers'] ?? '');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+)*$/.test(asked) ? asked : 'Authorization, Content-Type');
      res.setHeader('Access-Control-Max-Age', '3600');
      res.statusCode = 204;
      res.end();
      return true;
    }
    res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate');
    return false;
  }
  return cors;
}
