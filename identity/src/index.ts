export { createIdentityRealm, type IdentityRealm, type IdentityRealmOptions } from './realm.ts';
export { REALM_PATH } from './paths.ts';
export { ADMIN_PATH } from './admin.ts';
export { DUPLICATE_EMAIL_MESSAGE, RESET_SENT_MESSAGE } from './messages.ts';
export type { GoogleOptions } from './broker.ts';
export type { AccountHooks } from './admin.ts';
export type { MailOptions } from '@forum/platform';
export { realmEmailVerified } from './email-verified.ts';
export { prepareStore } from './store.ts';
