/**
 * What the gateway's answers must carry (docs/security/headers.md), written out as the policy
 * itself, so a test fails when a header goes missing or a policy gets weaker (a source added, a
 * directive dropped). `securityHeaderProblems` lists every difference; a test expects none.
 */

/** Which policy an answer is under. */
export type AnswerKind =
  /** /api, assets, health, errors, 404s: nothing in it may run, load or be framed */
  | 'strict'
  /** an app's index.html (documents and deep links) */
  | 'app-document'
  /** keycloak-js's check-sso page of an app, framed by the app itself */
  | 'check-sso-page'
  /** /api/docs, the API document's pages (Swagger UI): its own files, the document read from /api */
  | 'api-docs'
  /** the embedded realm's provider answers (JSON, redirects, the authorization endpoint check-sso frames): its own policy */
  | 'realm'
  /** the realm's third-party-cookie probe, framed by the apps: its own policy */
  | 'realm-probe'
  /** the realm's own pages (login, register, messages): their own hash-based policy */
  | 'realm-page';

export interface HeaderExpectations {
  /** Browsers reach the forum over https: HSTS expected (else forbidden). */
  readonly https?: boolean;
  /** An external issuer's origin, which the apps' connect-src and frame-src must name. */
  readonly issuerOrigin?: string;
  /** The request's Origin was allowed by CORS_ORIGINS: this value in Access-Control-Allow-Origin (else none). */
  readonly corsOrigin?: string;
}

const STRICT = { 'default-src': "'none'", 'base-uri': "'none'", 'form-action': "'none'", 'frame-ancestors': "'none'" };

function expectedCsp(kind: AnswerKind, issuerOrigin: string | undefined): Record<string, string> | null {
  const issuer = issuerOrigin ? ` ${issuerOrigin}` : '';
  switch (kind) {
    case 'strict':
      return STRICT;
    case 'app-document':
      return {
        'default-src': "'none'",
        'script-src': "'self'",
        'style-src': "'self' 'nonce-<nonce>'",
        'img-src': "'self' data: https:",
        'font-src': "'self'",
        'manifest-src': "'self'",
        'connect-src': `'self'${issuer}`,
        'frame-src': `'self'${issuer}`,
        'object-src': "'none'",
        'base-uri': "'none'",
        'form-action': "'self'",
        'frame-ancestors': "'none'",
      };
    case 'check-sso-page':
      return { 'default-src': "'none'", 'script-src': "'self'", 'base-uri': "'none'", 'form-action': "'none'", 'frame-ancestors': "'self'" };
    case 'api-docs':
      return {
        ...STRICT,
        'script-src': "'self'",
        'style-src': "'self'",
        'img-src': "'self' data:",
        'connect-src': "'self'",
        'object-src': "'none'",
      };
    case 'realm':
    case 'realm-probe':
    case 'realm-page':
      return null; // the realm's own: checked by its shape below
    default: {
      const unknown: never = kind;
      throw new Error(`unknown answer kind ${String(unknown)}`);
    }
  }
}

/** A CSP header as directive → sources (one space between sources), the nonce's value as `<nonce>`. */
export function parseCsp(header: string): Record<string, string> {
  const directives: Record<string, string> = {};
  for (const part of header.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    directives[name.toLowerCase()] = sources.map((s) => s.replace(/^'nonce-[A-Za-z0-9+/=_-]+'$/, "'nonce-<nonce>'")).join(' ');
  }
  return directives;
}

/** The nonce in an app document's CSP (its style-src), or null. */
export function cspNonce(headers: Headers): string | null {
  return /'nonce-([A-Za-z0-9+/=]+)'/.exec(headers.get('content-security-policy') ?? '')?.[1] ?? null;
}

/** Every way `headers` differ from what an answer of `kind` must carry; empty when they are right. */
export function securityHeaderProblems(headers: Headers, kind: AnswerKind, expectations: HeaderExpectations = {}): string[] {
  const problems: string[] = [];
  const exactly = (name: string, value: string | null) => {
    const actual = headers.get(name);
    if (actual !== value) problems.push(`${name}: ${JSON.stringify(actual)}, expected ${JSON.stringify(value)}`);
  };
  const framedBySelf = kind === 'check-sso-page' || kind === 'realm-probe';

  exactly('x-content-type-options', 'nosniff');
  // the realm's pages send no referrer at all, stricter than the gateway's default
  exactly('referrer-policy', kind === 'realm-page' || kind === 'realm-probe' ? 'no-referrer' : 'strict-origin-when-cross-origin');
  exactly('cross-origin-opener-policy', 'same-origin');
  exactly('cross-origin-resource-policy', 'same-origin');
  exactly('x-frame-options', framedBySelf ? 'SAMEORIGIN' : 'DENY');
  exactly('strict-transport-security', expectations.https ? 'max-age=31536000' : null);
  // the realm answers CORS for its own clients (keycloak-js's token calls, public discovery and keys)
  if (!kind.startsWith('realm')) {
    exactly('access-control-allow-origin', expectations.corsOrigin ?? null);
    exactly('access-control-allow-credentials', null);
  }

  const csp = headers.get('content-security-policy');
  if (csp === null) return [...problems, 'content-security-policy: missing'];
  const actual = parseCsp(csp);
  const expected = expectedCsp(kind, expectations.issuerOrigin);
  // a server-rendered public page (docs/seo.md) allows its markup's style attributes by their hashes, and nothing else more
  const styleHashes = /^('self' 'nonce-<nonce>') 'unsafe-hashes'( 'sha256-[A-Za-z0-9+/]{43}=')+$/.exec(actual['style-src'] ?? '');
  if (kind === 'app-document' && styleHashes) actual['style-src'] = styleHashes[1]!;
  if (expected === null) {
    // the realm's own policy: nothing loads but what it names, script and style only by hash; framed
    // only by the apps' own origin where keycloak-js frames it (the probe, the authorization endpoint)
    const frameAncestors = kind === 'realm-page' ? "'none'" : "'self'";
    if (actual['default-src'] !== "'none'") problems.push(`content-security-policy: default-src ${JSON.stringify(actual['default-src'])} on a realm page`);
    if (actual['frame-ancestors'] !== frameAncestors)
      problems.push(`content-security-policy: frame-ancestors ${JSON.stringify(actual['frame-ancestors'])} on a realm page, expected ${frameAncestors}`);
    if (actual['base-uri'] !== "'none'") problems.push(`content-security-policy: base-uri ${JSON.stringify(actual['base-uri'] ?? null)} on a realm page`);
    for (const directive of ['script-src', 'style-src']) {
      const sources = actual[directive];
      // absent: default-src 'none' holds for it
      if (sources !== undefined && !/^('sha256-[A-Za-z0-9+/=]+'|'none')$/.test(sources))
        problems.push(`content-security-policy: ${directive} ${JSON.stringify(sources)} on a realm page (a hash or 'none' expected)`);
    }
    return problems;
  }
  for (const directive of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    if (actual[directive] !== expected[directive]) {
      problems.push(
        `content-security-policy: ${directive} ${JSON.stringify(actual[directive] ?? null)}, expected ${JSON.stringify(expected[directive] ?? null)}`,
      );
    }
  }
  return problems;
}
