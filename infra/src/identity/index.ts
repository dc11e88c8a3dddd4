export { createIdentityRealm, REALM_PATH, type IdentityRealm, type IdentityRealmOptions } from './realm.ts';
