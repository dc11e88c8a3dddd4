export type { IdentityAdmin } from './port.ts';
export { clientCredentialsToken, keycloakIdentityAdmin } from './keycloak.ts';
export { identityAdminSettings, keycloakIdentityAdminFrom } from './settings.ts';
export { startErasureReactor, type ErasureReactor, type ErasureReactorOptions } from './reactor.ts';
