export {
  createIdentityRealm,
  ADMIN_PATH,
  DUPLICATE_EMAIL_MESSAGE,
  REALM_PATH,
  RESET_NEUTRAL_MESSAGE,
  RESET_SENT_MESSAGE,
  type IdentityRealm,
  type IdentityRealmOptions,
} from './realm.ts';
export type { GoogleOptions } from './broker.ts';
export type { AccountHooks } from './admin.ts';
export type { MailOptions } from './mail.ts';
