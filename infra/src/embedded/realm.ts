import { operatorMeta, type Accepted, type CommandMeta, type ForumCommands, type IdentityAdmin } from '@forum/command-service';
import { randomBytes } from 'node:crypto';
import { ADMIN_PATH, createIdentityRealm, type IdentityRealm } from '@forum/identity';
import type { Knex, Logger } from '@forum/platform';
import type { CheckpointWatcher } from '@forum/query-service';
import type { EmbeddedConfig } from './config.ts';

export interface EmbeddedRealmWiring {
  readonly config: EmbeddedConfig;
  /** Where browsers reach the forum: the realm's issuer is `${publicUrl}/realms/forum`. */
  readonly publicUrl: string;
  readonly db: Knex;
  readonly logger: Logger;
  /** What the realm's admin API changes about an account, the forum records through these. */
  readonly commands: ForumCommands;
  /** The read side's checkpoints: the admin API answers once the read side has applied the change. */
  readonly watcher: CheckpointWatcher;
  /** The service account of the realm's admin API, for command services in processes of their own (newServiceAccount). */
  readonly serviceAccount?: ServiceAccount;
}

/** A confidential client's id and secret. */
export interface ServiceAccount {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** The id of the service account the composition makes for its command services (Keycloak's name for such a client's user: service-account-<id>). */
const IDENTITY_ADMIN_CLIENT_ID = 'forum-identity-admin';

/** A service account with a new random secret: made at each start, known only to this process and the children it hands it to. */
export const newServiceAccount = (): ServiceAccount => ({ clientId: IDENTITY_ADMIN_CLIENT_ID, clientSecret: randomBytes(32).toString('base64url') });

/**
 * The variables with which a command service reaches the embedded realm's admin API, as it would a
 * Keycloak's: the service account, and the API at `internal` (where this machine reaches the gateway).
 */
export const identityAdminEnv = (account: ServiceAccount, internal: string): NodeJS.ProcessEnv => ({
  IDENTITY_ADMIN_URL: `${internal}${ADMIN_PATH}`,
  IDENTITY_ADMIN_CLIENT_ID: account.clientId,
  IDENTITY_ADMIN_CLIENT_SECRET: account.clientSecret,
});

/**
 * The embedded identity realm (no OIDC_ISSUER): sign-in, registration, password reset, Google, and
 * the Keycloak-shaped admin API, whose disabling, enabling and deleting of an account reach the
 * forum first and answer once the read side refuses (or lets in) the account's tokens
 * (docs/security/erasure.md).
 */
export function createEmbeddedRealm({ config, publicUrl, db, logger, commands, watcher, serviceAccount }: EmbeddedRealmWiring): Promise<IdentityRealm> {
  /** What the realm's admin API changes, as the forum records it: the realm's admin is the actor. */
  const realmAdminMeta = (adminId: string): CommandMeta => operatorMeta(adminId, 'identity-admin', new Date());
  /** Until the read side has applied what a command appended (or the read side's longest wait has passed). */
  const readable = async ({ answer }: { answer: Accepted }) => {
    await watcher.waitForToken(answer.position, config.MIN_POSITION_WAIT_MS);
  };
  return createIdentityRealm({
    publicOrigin: publicUrl,
    db,
    logger,
    audience: config.OIDC_AUDIENCE,
    adminEmails: config.ADMIN_EMAILS,
    trustProxy: config.TRUST_PROXY,
    google:
      config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
        ? { clientId: config.GOOGLE_CLIENT_ID, clientSecret: config.GOOGLE_CLIENT_SECRET, issuer: config.GOOGLE_ISSUER }
        : undefined,
    mail: { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM },
    confidentialClients:
      config.INTROSPECTION_CLIENT_ID && config.INTROSPECTION_CLIENT_SECRET
        ? [{ clientId: config.INTROSPECTION_CLIENT_ID, clientSecret: config.INTROSPECTION_CLIENT_SECRET }]
        : [],
    ...(serviceAccount && { serviceAccount }),
    accountHooks: {
      accessChanging: async (accountId, enabled, adminId) => readable(await commands.setAccountAccess(accountId, enabled, realmAdminMeta(adminId))),
      deleting: async (accountId, adminId) => readable(await commands.eraseDeletedAccount(accountId, realmAdminMeta(adminId))),
    },
  });
}

/** The identity-admin port on the embedded realm, in process: its own account store. */
export function embeddedIdentityAdmin(realm: IdentityRealm): IdentityAdmin {
  return {
    accountsByEmail: async (email) => {
      const account = await realm.accounts.findByEmail(email);
      return account ? [account.id] : [];
    },
    removeAccount: (id) => realm.accounts.remove(id),
    setHandle: (id, handle) => realm.accounts.setHandle(id, handle),
    setModerator: (id, moderator) => realm.accounts.setModerator(id, moderator),
    emailVerified: (id) => realm.accounts.emailVerified(id),
  };
}
