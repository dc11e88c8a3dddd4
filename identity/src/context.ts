import type { Knex, Logger, ProxyTrust } from '@forum/platform';
import type { AdminEmails } from './admin-emails.ts';
import type { BackgroundJobs } from './background.ts';
import type { GoogleBroker } from './broker.ts';
import type { Csrf } from './csrf.ts';
import type { Flash } from './flash.ts';
import type { LoginBackoff } from './login-backoff.ts';
import type { Mailer } from '@forum/platform';
import type { Site } from './pages/index.ts';
import type { createPasswordSignIn } from './password-sign-in.ts';
import type { AccountStore } from './store.ts';
import type { Throttle } from './throttle.ts';

/** What the realm's parts share, made once by createIdentityRealm (realm.ts). */
export interface RealmContext {
  /** the forum's origin; the realm is at `${publicOrigin}${REALM_PATH}` */
  readonly publicOrigin: string;
  readonly issuer: string;
  /** resource indicator and `aud` of every access token */
  readonly audience: string;
  readonly db: Knex;
  readonly log: Logger;
  readonly accounts: AccountStore;
  readonly site: Site;
  readonly csrf: Csrf;
  /** abuse limits of mail and registration; failed sign-ins back off by LOGIN_BACKOFF of contracts */
  readonly throttle: Throttle;
  readonly backoff: LoginBackoff;
  readonly flash: Flash;
  readonly trustProxy: ProxyTrust | undefined;
  readonly mailer: Mailer;
  /** null: Google sign-in is not configured */
  readonly google: GoogleBroker | null;
  readonly admins: AdminEmails;
  readonly passwordSignIn: ReturnType<typeof createPasswordSignIn>;
  readonly background: BackgroundJobs;
}
