export { createAuth, MIN_VALIDITY_SECONDS, NOT_KNOWN_YET } from './auth.ts';
export type { Auth, AuthInitOptions, AuthOptions, AuthReturn, AuthState, AuthStatus, LoginOptions } from './auth.ts';
export { hasAuthCallback, identityServer, refreshDelayMs, userFromClaims } from './helpers.ts';
export type { AuthUser } from './helpers.ts';
export { pageNonce } from './page-nonce.ts';
export { SILENT_CHECK_SSO_PAGE } from './silent-check-sso.ts';
