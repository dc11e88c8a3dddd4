import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodNotAllowed, readFormBody, sendJson } from './http.ts';
import { BODY_TOO_LARGE_MESSAGE } from './messages.ts';

/**
 * The request of the revocation and introspection endpoints (RFC 7009, RFC 7662): a POSTed form with
 * a `token`, from a client that authenticates as RFC 6749 §2.3 says. A public client names itself
 * (`client_id`); a confidential one proves its secret (HTTP Basic or `client_secret` in the form),
 * as Keycloak asks. The refusals are OAuth's JSON errors, in Keycloak's words.
 */

/** A client with a secret (Keycloak's confidential client), e.g. a resource server that introspects tokens. */
export interface ConfidentialClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface TokenRequest {
  readonly clientId: string;
  /** Authenticated with its secret (not only named). */
  readonly confidential: boolean;
  readonly token: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();
/** A part of an HTTP Basic client credential is form-urlencoded (RFC 6749 §2.3.1). */
const formDecoded = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));

type Credentials = { clientId: string; secret: string | null; basic: boolean } | 'malformed' | null;

function credentialsOf(req: IncomingMessage, form: URLSearchParams): Credentials {
  const header = req.headers.authorization;
  const inForm = form.has('client_id') || form.has('client_secret');
  if (header !== undefined) {
    const basic = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header);
    // one way of authenticating per request (RFC 6749 §2.3)
    if (!basic || inForm) return 'malformed';
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return 'malformed';
    try {
      return { clientId: formDecoded(decoded.slice(0, colon)), secret: formDecoded(decoded.slice(colon + 1)), basic: true };
    } catch {
      return 'malformed';
    }
  }
  const clientId = form.get('client_id');
  return clientId ? { clientId, secret: form.get('client_secret'), basic: false } : null;
}

export function createTokenRequests(publicClients: Iterable<string>, confidentialClients: readonly ConfidentialClient[]) {
  const publicIds = new Set(publicClients);
  const secrets = new Map(confidentialClients.map((client) => [client.clientId, digest(client.clientSecret)]));

  /** The request, or null when its refusal has been sent. */
  async function read(req: IncomingMessage, res: ServerResponse): Promise<TokenRequest | null> {
    if (req.method !== 'POST') {
      methodNotAllowed(res, 'POST');
      return null;
    }
    const refuse = (status: number, error: string, description: string, headers: Record<string, string> = {}) => {
      sendJson(res, status, { error, error_description: description }, headers);
      return null;
    };
    const body = await readFormBody(req);
    if (!body.ok) {
      return body.reason === 'size'
        ? refuse(413, 'invalid_request', BODY_TOO_LARGE_MESSAGE)
        : refuse(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    }
    const { form } = body;
    for (const name of new Set(form.keys())) if (form.getAll(name).length > 1) return refuse(400, 'invalid_request', `duplicated parameter: ${name}`);

    const credentials = credentialsOf(req, form);
    const unknown = (basic: boolean) =>
      refuse(401, 'invalid_client', 'Invalid client or Invalid client credentials', basic ? { 'WWW-Authenticate': 'Basic realm="forum"' } : {});
    if (credentials === 'malformed') return unknown(true);
    if (credentials === null) return unknown(false);
    const expected = secrets.get(credentials.clientId);
    let confidential = false;
    if (expected) {
      if (credentials.secret === null || !timingSafeEqual(digest(credentials.secret), expected)) return unknown(credentials.basic);
      confidential = true;
    } else if (!publicIds.has(credentials.clientId)) {
      return unknown(credentials.basic);
    }

    const token = form.get('token');
    if (!token) return refuse(400, 'invalid_request', 'Token not provided');
    return { clientId: credentials.clientId, confidential, token };
  }
  return read;
}

export type ReadTokenRequest = ReturnType<typeof createTokenRequests>;
