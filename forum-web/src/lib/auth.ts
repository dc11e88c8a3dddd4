import { REGISTRATION_PATH } from '@forum/contracts';
import { createAuth, identityServer, SILENT_CHECK_SSO_PAGE, type Auth } from '@forum/web-auth';

export { useAuth, useAuthState } from '@forum/web-auth/react';
export type { Auth, AuthUser } from '@forum/web-auth';

/** The forum's client of the realm; the realm is on the page's own origin unless VITE_OIDC_URL says otherwise. */
export function makeAuth(): Auth {
  const server = identityServer(import.meta.env.VITE_OIDC_URL, window.location.origin, 'forum');
  return createAuth({ ...server, clientId: 'forum-web', registrationUrl: new URL(REGISTRATION_PATH, window.location.origin).href });
}

/** Registered for forum-web at the realm; a same-origin page, so check-sso needs no full-page round trip. */
export const silentCheckSsoRedirectUri = () => `${window.location.origin}/${SILENT_CHECK_SSO_PAGE}`;

/** Routes that need a signed-in user (spec §2): signing out there goes home rather than back to the page. */
export function loginRequired(pathname: string): boolean {
  return /^\/(dashboard|membership|leaderboard)(\/|$)/.test(pathname) || /^\/post\/[^/]+\/comments\/?$/.test(pathname);
}

/** A same-app path to return to after sign-in, from untrusted router state; null when it is not one. */
export function returnPath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (/^\/joinUs(\/|$|\?|#)/i.test(value)) return null;
  return value;
}
