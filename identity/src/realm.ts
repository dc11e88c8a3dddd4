import type { IncomingMessage, ServerResponse } from 'node:http';
import { JOIN_US_PATH, JOIN_US_REGISTER_PATH } from '@forum/contracts';
import type { Knex, Logger, ProxyTrust } from '@forum/platform';
import { createAccessTokenVerifier } from './access-token.ts';
import { createAdminEmails } from './admin-emails.ts';
import { ADMIN_PATH, createAdminHandler, type AccountHooks } from './admin.ts';
import { createBackgroundJobs } from './background.ts';
import { createGoogleBroker, type GoogleOptions } from './broker.ts';
import { startCleanup } from './cleanup.ts';
import type { RealmContext } from './context.ts';
import { createCors } from './cors.ts';
import { createCsrf } from './csrf.ts';
import { createFlash } from './flash.ts';
import { createForgotPasswordFlow } from './flows/forgot-password.ts';
import { createGoogleFlow } from './flows/google.ts';
import { createMailbox } from './flows/mailbox.ts';
import { createRegistrationFlow } from './flows/registration.ts';
import { createResetPasswordFlow } from './flows/reset-password.ts';
import { createSignInFlow } from './flows/sign-in.ts';
import { createVerifyEmailFlow } from './flows/verify-email.ts';
import { createInteractions } from './interaction.ts';
import { createIntrospection } from './introspection.ts';
import { createLoginBackoff } from './login-backoff.ts';
import { createMailer, type MailOptions } from '@forum/platform';
import { createMailLink } from './one-time-link.ts';
import { MALFORMED_HOST_MESSAGE } from './messages.ts';
import { messagePage, providerCsp, thirdPartyCookiesProbe, type Site } from './pages/index.ts';
import { registerPasswordGrant } from './password-grant.ts';
import { createPasswordSignIn } from './password-sign-in.ts';
import { MAILBOX_PATH, REALM_PATH } from './paths.ts';
import { createProvider, FIRST_PARTY } from './provider.ts';
import { createRevocation } from './revocation.ts';
import { createRealmRouter } from './router.ts';
import { createAccountStore, prepareStore } from './store.ts';
import { createThrottle, DEFAULT_THROTTLE } from './throttle.ts';
import { createTokenRequests, type ConfidentialClient } from './token-request.ts';
import { createUserinfo } from './userinfo.ts';

export interface IdentityRealmOptions {
  /** e.g. 'http://localhost:3000'; issuer = `${publicOrigin}/realms/forum` */
  publicOrigin: string;
  /** The realm keeps everything in its own PostgreSQL schema `identity` (created idempotently on start). */
  db: Knex;
  logger: Logger;
  /** 'urn:forum:api': resource indicator and `aud` of every access token */
  audience: string;
  /** default 300 */
  accessTokenTtlSeconds?: number;
  /** 'Continue with Google' (and `kc_idp_hint=google`); absent: the button is shown disabled. */
  google?: GoogleOptions;
  /** Password-reset mail; without `smtpUrl` mails go to the development mailbox `{issuer}/mailbox`. */
  mail?: MailOptions;
  /** Accounts with these emails get the role 'admin' once the email is verified: when created so, when verified, or at sign-in (config ADMIN_EMAILS). */
  adminEmails?: readonly string[];
  /** Behind a reverse proxy: which proxies may say who the client is (TRUST_PROXY); by default none, the TCP peer is. */
  trustProxy?: ProxyTrust;
  /** What the forum is told before the admin API disables, enables or deletes an account. */
  accountHooks?: AccountHooks;
  /**
   * Clients with a secret (Keycloak's confidential clients), e.g. a resource server: they may
   * introspect any of the realm's tokens and revoke their own; they sign nobody in. None by default,
   * so introspection answers every client 403 "Client not allowed." until one is configured.
   */
  confidentialClients?: readonly ConfidentialClient[];
  /**
   * Keycloak's service account (service-account.ts): a confidential client with the
   * client-credentials grant whose token the admin API takes, with realm-management's view-users
   * and manage-users, and nothing else does. None by default.
   */
  serviceAccount?: ConfidentialClient;
}

export interface IdentityRealm {
  readonly issuer: string;
  /** The development mailbox's address (`{issuer}/mailbox`) when mail is kept there (no SMTP URL), else null. */
  readonly mailbox: string | null;
  /** plain Node request handler; the gateway hands it every request under /realms/forum, its whole URL (it strips the prefix itself) */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Keycloak's admin REST API for accounts; the gateway hands it every request under /admin/realms/forum, its whole URL. */
  readonly adminHandler: (req: IncomingMessage, res: ServerResponse) => void;
  readonly accounts: {
    /** `emailVerified`: the operator vouches for the address (ADMIN_EMAILS make admins only of verified addresses). */
    create(input: {
      email: string;
      password: string;
      name: string;
      picture?: string;
      handle?: string;
      roles?: string[];
      emailVerified?: boolean;
    }): Promise<{ id: string }>;
    findByEmail(email: string): Promise<{ id: string; email: string; name: string; picture: string; handle: string; roles: string[] } | null>;
    /** Writes the account's handle (the forum's copy, its rules); an account that is not there is left so. */
    setHandle(id: string, handle: string): Promise<void>;
    /** Gives the account the role `moderator`, or takes it (the forum's copy: the forum decides roles); an account that is not there is left so. */
    setModerator(id: string, moderator: boolean): Promise<void>;
    /** Deletes the account for good (an erased member's); nothing to do when there is none. */
    remove(id: string): Promise<void>;
    /** Whether the account's address is verified (false when there is no such account). */
    emailVerified(id: string): Promise<boolean>;
  };
  close(): Promise<void>;
}

/** The embedded realm: its store, the OIDC provider, the flows and the router that serves them. */
export async function createIdentityRealm(options: IdentityRealmOptions): Promise<IdentityRealm> {
  const publicOrigin = new URL(options.publicOrigin).origin;
  const issuer = `${publicOrigin}${REALM_PATH}`;
  const { audience, db } = options;
  const accessTokenTtl = options.accessTokenTtlSeconds ?? 300;
  if (!Number.isSafeInteger(accessTokenTtl) || accessTokenTtl <= 0) throw new TypeError('accessTokenTtlSeconds must be a positive integer');
  const log = options.logger.child({ component: 'identity-realm' });
  const confidentialClients = options.confidentialClients ?? [];
  const serviceAccount = options.serviceAccount ?? null;
  const clientIds = new Set(FIRST_PARTY);
  for (const { clientId, clientSecret } of [...confidentialClients, ...(serviceAccount ? [serviceAccount] : [])]) {
    if (!clientId || clientIds.has(clientId)) throw new TypeError(`confidential client id "${clientId}" is empty or taken by another client`);
    if (clientSecret.length < 16) throw new TypeError(`the secret of confidential client "${clientId}" must have at least 16 characters`);
    clientIds.add(clientId);
  }
  const adminAudience = `${publicOrigin}${ADMIN_PATH}`;

  const secrets = await prepareStore(db);
  const accounts = createAccountStore(db, { forumOrigin: publicOrigin });
  const csrfKey = Buffer.from(secrets.cookieKeys[0] ?? '', 'base64url');
  const allowedOrigins = new Set([publicOrigin]);
  const formTargets = [...allowedOrigins];
  const site: Site = {
    formTargets,
    home: `${publicOrigin}/`,
    login: `${publicOrigin}${JOIN_US_PATH}`,
    register: `${publicOrigin}${JOIN_US_REGISTER_PATH}`,
  };
  /** Who may frame the realm's answers meant for frames (keycloak-js's silent check and cookie probe): the forum's apps, on the realm's own origin. */
  const frameAncestors = ["'self'"];
  const providerPolicy = providerCsp(formTargets, frameAncestors);
  const cookiesProbe = thirdPartyCookiesProbe(frameAncestors);
  const secureCookies = new URL(publicOrigin).protocol === 'https:';
  const csrf = createCsrf(csrfKey, { path: REALM_PATH, secure: secureCookies });
  const throttleKey = Buffer.from(secrets.throttleKey, 'base64url');
  // abuse limits of mail and registration; failed sign-ins back off by LOGIN_BACKOFF of contracts
  const throttle = createThrottle(db, DEFAULT_THROTTLE, throttleKey);
  const backoff = createLoginBackoff(db, throttleKey);
  const flash = createFlash(db);
  const trustProxy = options.trustProxy;
  const mailer = createMailer(options.mail, db, log);
  const google = options.google?.clientId && options.google.clientSecret ? createGoogleBroker(options.google, issuer, db, log) : null;
  if (mailer.mode === 'mailbox') log.warn({ mailbox: `${issuer}${MAILBOX_PATH}` }, 'SMTP_URL is not set: mails go to the development mailbox');

  const admins = createAdminEmails(accounts, options.adminEmails ?? []);
  const background = createBackgroundJobs(log);
  const realm: RealmContext = {
    publicOrigin,
    issuer,
    audience,
    db,
    log,
    accounts,
    site,
    csrf,
    throttle,
    backoff,
    flash,
    trustProxy,
    mailer,
    google,
    admins,
    passwordSignIn: createPasswordSignIn(accounts, backoff, trustProxy),
    background,
  };

  const { provider, resourceServer } = createProvider(realm, { secrets, accessTokenTtl, allowedOrigins, serviceAccount, adminAudience });
  registerPasswordGrant(provider, resourceServer, realm);
  const verifyAccessToken = createAccessTokenVerifier(secrets.signingKeys, issuer, audience);
  const readTokenRequest = createTokenRequests(FIRST_PARTY, confidentialClients);
  const interactions = createInteractions(provider, realm);
  const mailLink = createMailLink(realm);
  const signInFlow = createSignInFlow(realm, interactions);
  const verifyEmailFlow = createVerifyEmailFlow(realm, mailLink);
  const registrationFlow = createRegistrationFlow(realm, interactions, verifyEmailFlow.sendVerificationMail);
  const googleFlow = createGoogleFlow(realm, interactions, signInFlow.loginView);

  const handler = createRealmRouter(
    {
      cors: createCors(allowedOrigins),
      userinfo: createUserinfo(accounts, verifyAccessToken),
      revocation: createRevocation(provider, readTokenRequest, verifyAccessToken, log),
      introspection: createIntrospection(provider, readTokenRequest, verifyAccessToken, accounts),
      cookiesProbe,
      registrations: registrationFlow.registrations,
      login: signInFlow.login,
      register: registrationFlow.register,
      expiredPage: interactions.expiredPage,
      forgotPassword: createForgotPasswordFlow(realm, mailLink),
      resetPassword: createResetPasswordFlow(realm, provider),
      verifyEmail: verifyEmailFlow.verifyEmail,
      brokerLogin: googleFlow.brokerLogin,
      brokerEndpoint: googleFlow.brokerEndpoint,
      mailbox: createMailbox(realm),
      malformedHostPage: messagePage({ title: 'Bad request', message: MALFORMED_HOST_MESSAGE, status: 400, site }),
      providerPolicy,
      callback: provider.callback(),
    },
    issuer,
    log,
  );
  const { createAccount } = admins;
  const adminHandler = createAdminHandler({
    publicOrigin,
    accounts,
    createAccount,
    verifyAccessToken,
    verifyServiceAccountToken: createAccessTokenVerifier(secrets.signingKeys, issuer, adminAudience),
    log,
    hooks: options.accountHooks,
  });
  const stopCleanup = startCleanup(db, log);

  log.info({ issuer, google: google !== null, mail: mailer.mode }, 'identity realm ready');

  return {
    issuer,
    mailbox: mailer.mode === 'mailbox' ? `${issuer}${MAILBOX_PATH}` : null,
    handler,
    adminHandler,
    accounts: {
      create: (input) => createAccount(input),
      findByEmail: async (email) => {
        const record = await accounts.findByEmail(email);
        return record && { id: record.id, email: record.email, name: record.name, picture: record.picture, handle: record.handle, roles: record.roles };
      },
      remove: (id) => accounts.delete(id),
      setHandle: async (id, handle) => {
        if (await accounts.findById(id)) await accounts.setHandle(id, handle);
      },
      setModerator: async (id, moderator) => {
        if (!(await accounts.findById(id))) return;
        await (moderator ? accounts.addRole(id, 'moderator') : accounts.removeRole(id, 'moderator'));
      },
      emailVerified: async (id) => (await accounts.findById(id))?.emailVerified === true,
    },
    async close() {
      stopCleanup();
      await background.settled();
      mailer.close();
    },
  };
}
