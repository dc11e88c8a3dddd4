import { REGISTRATION_PATH } from '@forum/contracts';
import { createAuth, identityServer, SILENT_CHECK_SSO_PAGE, type Auth } from '@forum/web-auth';

/** Where the console lives on the gateway ('/admin/'); the realm accepts admin-web's redirects under it. */
export const consoleUrl = () => new URL(import.meta.env.BASE_URL, window.location.origin).href;

/** The console's client of the realm; the realm is on the page's own origin unless VITE_OIDC_URL says otherwise. */
export function makeAuth(): Auth {
  const server = identityServer(import.meta.env.VITE_OIDC_URL, window.location.origin, 'forum');
  return createAuth({ ...server, clientId: 'admin-web', registrationUrl: new URL(REGISTRATION_PATH, window.location.origin).href });
}

export const initAuth = (auth: Auth) =>
  auth.init({ onLoad: 'check-sso', checkLoginIframe: false, pkceMethod: 'S256', silentCheckSsoRedirectUri: `${consoleUrl()}${SILENT_CHECK_SSO_PAGE}` });
