import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

/**
 * The request's Host, which the realm never builds a URL from: a malformed one is refused (RFC 9110
 * §7.2: 400 for an invalid or repeated Host), a well-formed one is replaced by the issuer's before
 * oidc-provider sees the request, so every URL it hands out (discovery, forms, redirects) is the
 * issuer's, whatever the client or a proxy said.
 */

/** RFC 3986 reg-name (an IPv4 address is one too): unreserved, sub-delims, percent-encoded octets. */
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+$/;
/** The longest name DNS can carry. */
const MAX_NAME_LENGTH = 253;

/** `host [":" port]` of RFC 3986 with a port of at most 65535; IPv6 in brackets; no userinfo, path or spaces. */
export function isValidHost(value: string): boolean {
  let port: string | undefined;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0 || !isIPv6(value.slice(1, end))) return false;
    const rest = value.slice(end + 1);
    if (rest && !rest.startsWith(':')) return false;
    if (rest) port = rest.slice(1);
  } else {
    const colon = value.lastIndexOf(':');
    const name = colon < 0 ? value : value.slice(0, colon);
    if (!REG_NAME.test(name) || name.length > MAX_NAME_LENGTH) return false;
    if (colon >= 0) port = value.slice(colon + 1);
  }
  // an empty port is allowed (RFC 3986 `port = *DIGIT`)
  return port === undefined || port === '' || (/^\d{1,5}$/.test(port) && Number(port) <= 65535);
}

/** One well-formed Host line, or none (HTTP/1.0). */
export function hasValidHost(req: IncomingMessage): boolean {
  let lines = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') lines++;
  if (lines > 1) return false;
  return req.headers.host === undefined || isValidHost(req.headers.host);
}

/**
 * Before oidc-provider reads the request: the issuer's host and protocol in place of the client's,
 * in the headers oidc-provider (Koa, with `proxy` on) reads them from. The client's address
 * (X-Forwarded-For) is left as it came.
 */
export function asIssuerRequest(req: IncomingMessage, issuer: URL) {
  req.headers.host = issuer.host;
  req.headers['x-forwarded-host'] = issuer.host;
  req.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
}

/** `/path?query` of a request target: an absolute-form one (`GET http://host/path`) names no host either. */
export function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  const url = new URL(target, 'http://realm.invalid');
  return `${url.pathname}${url.search}`;
}
