import type Provider from 'oidc-provider';
import { REALM_PATH } from './paths.ts';

/** Is `value` a canonical absolute URL on `prefix`'s origin whose path starts with `prefix`'s path? */
export function isUnderPrefix(value: unknown, prefix: URL): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  // no whitespace, control characters, backslashes or fragments: what is checked is what the browser gets
  if (/[\s\\#\p{Cc}]/u.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.href !== value) return false; // canonical form only (no dot segments, default ports, odd encodings)
  if (url.username || url.password) return false;
  if (url.origin !== prefix.origin) return false;
  // never back into the identity provider itself (its endpoints redirect; a code must not travel on)
  if (url.pathname === REALM_PATH || url.pathname.startsWith(`${REALM_PATH}/`)) return false;
  return url.pathname.startsWith(prefix.pathname);
}

/** Redirect URIs: the registered exact ones, or any canonical URL under the client's own prefix. */
export function allowRedirectsUnderPrefixes(provider: Provider, publicOrigin: string) {
  /** keycloak-js sends the current page as redirect_uri: each browser client owns one path prefix of its origin. */
  const redirectPrefixes = new Map<string, URL>([
    ['forum-web', new URL(`${publicOrigin}/`)],
    ['admin-web', new URL(`${publicOrigin}/admin/`)],
  ]);
  type UriCheck = (this: ClientPrototype, value: string) => boolean;
  type ClientPrototype = { clientId: string; redirectUriAllowed: UriCheck; postLogoutRedirectUriAllowed: UriCheck };
  const clientPrototype = provider.Client.prototype as unknown as ClientPrototype;
  const exactRedirect = clientPrototype.redirectUriAllowed;
  const exactPostLogout = clientPrototype.postLogoutRedirectUriAllowed;
  clientPrototype.redirectUriAllowed = function (this: ClientPrototype, value: string) {
    const prefix = redirectPrefixes.get(this.clientId);
    return exactRedirect.call(this, value) || (prefix !== undefined && isUnderPrefix(value, prefix));
  };
  clientPrototype.postLogoutRedirectUriAllowed = function (this: ClientPrototype, value: string) {
    const prefix = redirectPrefixes.get(this.clientId);
    return exactPostLogout.call(this, value) || (prefix !== undefined && isUnderPrefix(value, prefix));
  };
}
