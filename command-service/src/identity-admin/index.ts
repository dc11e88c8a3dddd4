export type { IdentityAdmin } from './port.ts';
export { keycloakIdentityAdmin } from './keycloak.ts';
export { identityAdminSettings, keycloakIdentityAdminFrom } from './settings.ts';
export { startErasureReactor } from './reactor.ts';
export { realmHandleWriter, type HandleWritten } from './handles.ts';
export { realmRoleWriter } from './roles.ts';
export { startErasureList } from './erasure-list.ts';
