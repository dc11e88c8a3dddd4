/** Pure helpers of the auth module: no keycloak-js, no DOM, so they are easy to test (forum-web/src/lib/auth.unit.test.ts). */

/** The signed-in user as the forum's screens need it, read from the access token's claims. */
export interface AuthUser {
  /** `sub`: the identity provider's id of the account */
  readonly id: string;
  readonly email: string;
  /** The display name; falls back to the email's local part, then 'Anonymous' (spec §3). */
  readonly name: string;
  /** Photo URL, '' when the account has none (the apps show a default image). */
  readonly picture: string;
  /** `realm_access.roles` of the token, e.g. ['user'] or ['user', 'admin']. */
  readonly roles: readonly string[];
  /** `email_verified`: whether the account's owner has confirmed the address (false when the token does not say). */
  readonly emailVerified: boolean;
}

type Claims = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * Keycloak puts the profile in the access token (default client scopes `profile`, `email`,
 * `roles`); the ID token is the fallback for a realm that maps them only there.
 */
export function userFromClaims(access: Claims | undefined, id?: Claims): AuthUser | null {
  const sub = text(access?.sub) || text(id?.sub);
  if (!sub) return null;
  const pick = (name: string) => text(access?.[name]) || text(id?.[name]);
  const email = pick('email');
  const realmAccess = (access?.realm_access ?? id?.realm_access) as { roles?: unknown } | undefined;
  const roles = Array.isArray(realmAccess?.roles) ? realmAccess.roles.filter((r): r is string => typeof r === 'string') : [];
  const name =
    pick('name') || [pick('given_name'), pick('family_name')].filter(Boolean).join(' ') || email.split('@')[0] || pick('preferred_username') || 'Anonymous';
  const emailVerified = (access?.email_verified ?? id?.email_verified) === true;
  return { id: sub, email, name, picture: pick('picture'), roles, emailVerified };
}

/**
 * Milliseconds until a token should be refreshed: `aheadSeconds` before its `exp`,
 * corrected by keycloak-js's estimate of the clock difference to the server (`timeSkew`,
 * local minus server, in seconds). Never negative.
 */
export function refreshDelayMs(exp: number | undefined, timeSkewSeconds: number | null | undefined, nowMs: number, aheadSeconds: number): number | null {
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return null;
  const expiresInMs = (exp + (timeSkewSeconds ?? 0)) * 1000 - nowMs;
  return Math.max(0, expiresInMs - aheadSeconds * 1000);
}

/**
 * Where keycloak-js finds the realm: `url` is the server (the realm lives at
 * `${url}/realms/${realm}`). A configured value may be either that server URL or the
 * realm's issuer URL (`https://sso.example.com/realms/forum`), as the services'
 * OIDC_ISSUER is written; unset means the page's own origin (the gateway serves the
 * embedded realm, or proxies Keycloak, under /realms/forum).
 */
export function identityServer(configured: string | undefined, origin: string, defaultRealm: string): { url: string; realm: string } {
  const value = (configured ?? '').trim();
  if (!value) return { url: origin, realm: defaultRealm };
  const base = new URL(value, origin);
  const path = base.pathname.replace(/\/+$/, '');
  const match = /^(.*)\/realms\/([^/]+)$/.exec(path);
  const url = `${base.origin}${match ? match[1] : path}`;
  return { url, realm: match ? decodeURIComponent(match[2]!) : defaultRealm };
}

/**
 * Does this URL carry the realm's answer (keycloak-js's fragment response mode: `#state=…&code=…`
 * or `#state=…&error=…`)? Until init() has taken it out, a router must not read the URL.
 */
export function hasAuthCallback(href: string): boolean {
  const hash = new URL(href).hash.slice(1);
  if (!hash) return false;
  const params = new URLSearchParams(hash);
  return params.has('state') && (params.has('code') || params.has('error'));
}
