import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkPhotoUrl, checkText, EMAIL_VERIFICATION_TTL_SECONDS, isEmail, JOIN_US_PATH, JOIN_US_REGISTER_PATH, REGISTER_ACTION, normalizeEmail, PASSWORD_MISMATCH_MESSAGE, passwordProblem } from '@forum/contracts';
import { clientAddress, ConflictError, createTokenVerifier, type Knex, type Logger, type ProxyTrust } from '@forum/platform';
import Provider, {
  errors,
  type Account,
  type ClientMetadata,
  type Configuration,
  type JWK,
  type KoaContextWithOIDC,
  type InteractionResults,
  type ResourceServer,
} from 'oidc-provider';
import { deleteExpired, postgresAdapter } from './adapter.ts';
import { ADMIN_PATH, createAdminHandler, type AccountHooks } from './admin.ts';
import { BrokerError, createGoogleBroker, deleteExpiredBrokerStates, GOOGLE, type GoogleOptions } from './broker.ts';
import { createCsrf } from './csrf.ts';
import { createFlash, deleteExpiredFlashes } from './flash.ts';
import { appendVary, isLocalRequest, methodNotAllowed, readForm, redirect, sendJson, sendPage } from './http.ts';
import { createMailer, deleteOldMail, type MailOptions } from './mail.ts';
import {
  escapeHtml,
  forgotPasswordPage,
  loginPage,
  logoutPage,
  mailboxPage,
  messagePage,
  providerCsp,
  registerPage,
  resetPasswordPage,
  resetRequestedPage,
  thirdPartyCookiesProbe,
  type GoogleButton,
  type Page,
  type RegisterField,
  type Site,
} from './pages.ts';
import { refreshEnvelope } from './refresh-token.ts';
import { ACCOUNT_NAME, createAccountStore, fitAccountName, prepareStore, SCHEMA, type AccountRecord, type NewAccount } from './store.ts';
import { createLoginBackoff, deleteExpiredBackoff } from './login-backoff.ts';
import { createThrottle, DEFAULT_THROTTLE, deleteExpiredLimits, tooManyAttemptsMessage, tooManyRequestsMessage } from './throttle.ts';

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
  /** Password-reset mail; without `smtpUrl` mails go to the development mailbox `{issuer}/mailbox` and the log. */
  mail?: MailOptions;
  /** Accounts with these emails get the role 'admin' once the email is verified: when created so, when verified, or at sign-in (config ADMIN_EMAILS). */
  adminEmails?: readonly string[];
  /** Behind a reverse proxy: which proxies may say who the client is (TRUST_PROXY); by default none, the TCP peer is. */
  trustProxy?: ProxyTrust;
  /** What the forum is told before the admin API disables, enables or deletes an account. */
  accountHooks?: AccountHooks;
}

export interface IdentityRealm {
  readonly issuer: string;
  /** plain Node request handler; the gateway mounts it with express `app.use('/realms/forum', realm.handler)` */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Keycloak's admin REST API for accounts; the gateway mounts it with `app.use('/admin/realms/forum', realm.adminHandler)`. */
  readonly adminHandler: (req: IncomingMessage, res: ServerResponse) => void;
  readonly accounts: {
    /** `emailVerified`: the operator vouches for the address (ADMIN_EMAILS make admins only of verified addresses). */
    create(input: { email: string; password: string; name: string; picture?: string; roles?: string[]; emailVerified?: boolean }): Promise<{ id: string }>;
    findByEmail(email: string): Promise<{ id: string; email: string; name: string; picture: string; roles: string[] } | null>;
    /** Deletes the account for good (an erased member's); nothing to do when there is none. */
    remove(id: string): Promise<void>;
  };
  close(): Promise<void>;
}

/** What a refused form's page shows after the redirect (flash.ts). */
type LoginFlash = { email: string; error: string; status?: number };
type ForgotFlash = { email: string; error?: string; status?: number; sent?: boolean };
type ResetFlash = { errors: Partial<Record<'password' | 'password-confirm', string>>; error?: string; status?: number } | { updated: { pending: string | null } };
type RegisterFlash = { values: { name: string; photo: string; email: string }; errors: Partial<Record<RegisterField, string>>; error?: string; status?: number };

type PasswordSignIn =
  | { result: 'held'; retryMs: number }
  | { result: 'wrong'; retryMs: number }
  | { result: 'disabled'; record: AccountRecord }
  | { result: 'ok'; record: AccountRecord };

/** Where the realm lives under the public origin (Keycloak's layout). */
export const REALM_PATH = '/realms/forum';
const OIDC = '/protocol/openid-connect';
const LOGIN_PATH = '/login-actions/authenticate';
const REGISTER_PATH = '/login-actions/registration';
const RESET_PATH = '/login-actions/reset-credentials';
const ACTION_TOKEN_PATH = '/login-actions/action-token';
const VERIFY_EMAIL_PATH = '/login-actions/verify-email';
const BROKER_LOGIN_PATH = `/broker/${GOOGLE}/login`;
const BROKER_ENDPOINT_PATH = `/broker/${GOOGLE}/endpoint`;
const MAILBOX_PATH = '/mailbox';
export { ADMIN_PATH };

/** The spec's success toast of a reset request (§8), and the answer that reveals nothing. */
export const RESET_SENT_MESSAGE = 'A password reset email is sent. Please check your email.';
export const RESET_NEUTRAL_MESSAGE = 'If an account exists for that email, we sent a link to reset the password.';
export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists.';
const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password.';
const DISABLED_MESSAGE = 'Account is disabled, contact your administrator.';
const UNVERIFIED_GOOGLE_MESSAGE =
  'The email address of your Google account is not verified, so it cannot be used to sign in here. Verify it with Google, or sign in with your email and password.';
const GOOGLE_UNCONFIGURED = 'Google sign-in is not configured on this server.';
const RESET_TOKEN_KIND = 'reset-password';
const VERIFY_TOKEN_KIND = 'verify-email';
const RESET_TOKEN_TTL_SECONDS = 30 * 60;

const SSO_SESSION_MAX_SECONDS = 10 * 60 * 60;
const SSO_SESSION_IDLE_SECONDS = 30 * 60;
const INTERACTION_TTL_SECONDS = 30 * 60;
const CLEANUP_EVERY_MS = 10 * 60_000;

const FIRST_PARTY = new Set(['forum-web', 'admin-web', 'forum-cli']);
const OIDC_SCOPES = ['openid', 'email', 'profile'];
const UID = /^[A-Za-z0-9_-]{1,64}$/;
/** The key of a sign-in's interaction result that says it registered the account. */
const REGISTERED = 'forum_registered';

/** Endpoints browsers call cross-origin with credentials (keycloak-js uses XHR with credentials). */
const CREDENTIALED_CORS_PATHS = new Set([
  `${OIDC}/token`,
  `${OIDC}/userinfo`,
  `${OIDC}/certs`,
  '/.well-known/openid-configuration',
]);

/** Is `value` a canonical absolute URL on `prefix`'s origin whose path starts with `prefix`'s path? */
export function isUnderPrefix(value: unknown, prefix: URL): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  // no whitespace, control characters, backslashes or fragments: what is checked is what the browser gets
  if (/[\s\\#\u0000-\u001f\u007f]/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.href !== value) return false; // canonical form only (no dot segments, default ports, odd encodings)
  if (url.username || url.password) return false;
  if (url.origin !== prefix.origin) return false;
  // never back into the identity provider itself (its endpoints redirect; a code must not travel on)
  if (url.pathname === REALM_PATH || url.pathname.startsWith(`${REALM_PATH}/`)) return false;
  return url.pathname.startsWith(prefix.pathname);
}

function publicJwk(jwk: JsonWebKey): JWK {
  const { kty, n, e, kid, alg, use } = jwk as JsonWebKey & { kid?: string; alg?: string; use?: string };
  return { kty, n, e, kid, alg, use } as JWK;
}

function pageOnContext(ctx: KoaContextWithOIDC, page: Page) {
  ctx.status = page.status;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', page.csp);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = page.html;
}

export async function createIdentityRealm(options: IdentityRealmOptions): Promise<IdentityRealm> {
  const publicOrigin = new URL(options.publicOrigin).origin;
  const issuer = `${publicOrigin}${REALM_PATH}`;
  const { audience, db } = options;
  const accessTokenTtl = options.accessTokenTtlSeconds ?? 300;
  if (!Number.isSafeInteger(accessTokenTtl) || accessTokenTtl <= 0) throw new TypeError('accessTokenTtlSeconds must be a positive integer');
  const log = options.logger.child({ component: 'identity-realm' });

  const secrets = await prepareStore(db);
  const accounts = createAccountStore(db, { forumOrigin: publicOrigin });
  const envelope = refreshEnvelope(secrets.refreshTokenKey, issuer);
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
  const adminEmails = new Set((options.adminEmails ?? []).map(normalizeEmail).filter(Boolean));
  if (mailer.mode === 'mailbox') log.warn({ mailbox: `${issuer}${MAILBOX_PATH}` }, 'SMTP_URL is not set: mails go to the development mailbox and the log');

  /**
   * ADMIN_EMAILS make admins only of verified addresses: otherwise whoever registers a listed
   * address first would be admin. An account made verified is admin from the start ...
   */
  const createAccount = (input: NewAccount) =>
    accounts.create({
      ...input,
      roles: [...(input.roles ?? []), ...(input.emailVerified && adminEmails.has(normalizeEmail(input.email ?? '')) ? ['admin'] : [])],
    });
  /** ... one verified later from then on (see emailProven), and one listed later from its next sign-in. */
  async function promoteAdmin(record: AccountRecord) {
    if (record.emailVerified && adminEmails.has(record.email) && !record.roles.includes('admin')) {
      await accounts.addRole(record.id, 'admin');
      record.roles.push('admin');
    }
  }
  /** The owner of the mailbox is known (a verification link followed, a mailed reset done; the caller marked it verified with the link's use): admin when listed. */
  async function emailProven(accountId: string) {
    const record = await accounts.findById(accountId);
    if (record) await promoteAdmin(record);
    return record;
  }

  /**
   * A sign-in with a password (the login form, the password grant) under the back-off: `held` before
   * the password is checked; `wrong`, with the wait it brings (0: none yet); `disabled` for the right
   * password of a disabled account; `ok` when the back-off has been told it was right.
   */
  async function passwordSignIn(req: IncomingMessage, email: string, password: string): Promise<PasswordSignIn> {
    const attempt = await backoff.attempt(email, clientAddress(req, trustProxy));
    if (attempt.waitMs) return { result: 'held', retryMs: attempt.waitMs };
    const record = await accounts.authenticate(email, password);
    if (!record) return { result: 'wrong', retryMs: attempt.waitAfterFailureMs };
    if (!record.enabled) return { result: 'disabled', record };
    await attempt.succeeded();
    return { result: 'ok', record };
  }

  /** keycloak-js sends the current page as redirect_uri: each browser client owns one path prefix of its origin. */
  const redirectPrefixes = new Map<string, URL>([
    ['forum-web', new URL(`${publicOrigin}/`)],
    ['admin-web', new URL(`${publicOrigin}/admin/`)],
  ]);

  const clients: ClientMetadata[] = [
    {
      client_id: 'forum-web',
      client_name: 'Forum',
      application_type: 'web',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [`${publicOrigin}/`, `${publicOrigin}/silent-check-sso.html`],
      post_logout_redirect_uris: [`${publicOrigin}/`],
    },
    {
      client_id: 'admin-web',
      client_name: 'Forum admin',
      application_type: 'web',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [`${publicOrigin}/admin/`, `${publicOrigin}/admin`],
      post_logout_redirect_uris: [`${publicOrigin}/admin/`, `${publicOrigin}/admin`],
    },
    {
      client_id: 'forum-cli',
      client_name: 'Forum CLI',
      token_endpoint_auth_method: 'none',
      grant_types: ['password'],
      response_types: [],
      redirect_uris: [],
    },
  ];

  const resourceServer: ResourceServer = {
    scope: OIDC_SCOPES.join(' '),
    audience,
    accessTokenFormat: 'jwt',
    accessTokenTTL: accessTokenTtl,
    jwt: { sign: { alg: 'RS256' } },
  };

  const idTokenClaims = (account: AccountRecord) => ({
    sub: account.id,
    email: account.email,
    email_verified: account.emailVerified,
    name: account.name,
    ...(account.picture ? { picture: account.picture } : {}), // OIDC: omit claims without a value
    preferred_username: account.email,
  });

  /**
   * A logout request that carries the id_token_hint of this session's own sign-in (oidc-provider has
   * checked its signature and audience): it comes from the app the user is signed into, so it signs
   * out at once, as keycloak-js expects. Anything else (no hint, someone else's) asks first.
   */
  function hintsOwnSession(ctx: KoaContextWithOIDC): boolean {
    const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown; sid?: unknown; aud?: unknown } } | undefined;
    const session = ctx.oidc.session;
    if (!hint?.payload || !session?.accountId || hint.payload.sub !== session.accountId) return false;
    return hint.payload.sid === undefined || (typeof hint.payload.aud === 'string' && hint.payload.sid === session.sidFor(hint.payload.aud));
  }

  /** "Sign out?" with a button: the same form oidc-provider would submit, posted only by the person. */
  function logoutConfirmation(ctx: KoaContextWithOIDC): Page {
    const back = ctx.oidc.params?.post_logout_redirect_uri;
    return messagePage({
      title: 'Sign out',
      message: 'Do you want to sign out of Forum?',
      form: { action: ctx.oidc.urlFor('end_session_confirm'), fields: { xsrf: String(ctx.oidc.session?.state?.secret ?? ''), logout: 'yes' }, button: 'Sign out' },
      link: { href: typeof back === 'string' ? back : `${publicOrigin}/`, label: 'Stay signed in' },
      site,
    });
  }

  const toAccount = (record: AccountRecord): Account => ({
    accountId: record.id,
    claims: () => idTokenClaims(record),
  });

  const configuration: Configuration = {
    adapter: postgresAdapter(db),
    jwks: { keys: secrets.signingKeys as JWK[] },
    clients,
    cookies: {
      keys: secrets.cookieKeys,
      names: { session: 'forum_idp_session', interaction: 'forum_idp_interaction', resume: 'forum_idp_resume' },
      long: { httpOnly: true, sameSite: 'lax', path: REALM_PATH },
      // the interaction cookie covers every page of the realm (login, register, the Google callback): one pending sign-in per browser, like Keycloak's auth session
      short: { httpOnly: true, sameSite: 'lax', path: REALM_PATH },
    },
    routes: {
      authorization: `${OIDC}/auth`,
      token: `${OIDC}/token`,
      userinfo: `${OIDC}/userinfo`,
      jwks: `${OIDC}/certs`,
      end_session: `${OIDC}/logout`,
      revocation: `${OIDC}/revoke`,
      introspection: `${OIDC}/token/introspect`,
      pushed_authorization_request: `${OIDC}/ext/par/request`,
      device_authorization: `${OIDC}/auth/device`,
      code_verification: '/device',
    },
    scopes: OIDC_SCOPES,
    claims: {
      // Keycloak's default client scopes: the ID token carries email and profile even for `scope=openid`
      openid: ['sub', 'email', 'email_verified', 'name', 'picture', 'preferred_username'],
      email: ['email', 'email_verified'],
      profile: ['name', 'picture', 'preferred_username'],
    },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientBasedCORS: (_ctx, origin) => allowedOrigins.has(origin),
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: true }, // listed in discovery; the realm answers it itself (see `userinfo` below)
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== audience) throw new errors.InvalidTarget();
          return resourceServer;
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => pageOnContext(ctx, hintsOwnSession(ctx) ? logoutPage(form, site) : logoutConfirmation(ctx)),
        postLogoutSuccessSource: (ctx) =>
          pageOnContext(ctx, messagePage({ title: 'Signed out', message: 'You have been signed out.', site })),
      },
    },
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: accessTokenTtl,
      Interaction: INTERACTION_TTL_SECONDS,
      Session: SSO_SESSION_MAX_SECONDS,
      Grant: SSO_SESSION_MAX_SECONDS,
      RefreshToken: SSO_SESSION_IDLE_SECONDS,
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // kc_idp_hint: keycloak-js `login({ idpHint })`; forum_screen=register: set by the registrations endpoint
    extraParams: ['kc_idp_hint', 'forum_screen'],
    interactions: {
      url: (_ctx, interaction) => {
        const { uid, params, prompt } = interaction;
        if (prompt.name === 'login') {
          if (google && params.kc_idp_hint === GOOGLE) return `${REALM_PATH}${BROKER_LOGIN_PATH}?interaction=${uid}`;
          if (params.forum_screen === 'register') return `${REALM_PATH}${REGISTER_PATH}/${uid}`;
        }
        return `${REALM_PATH}${LOGIN_PATH}/${uid}`;
      },
    },
    findAccount: async (_ctx, sub) => {
      const record = await accounts.findById(sub);
      return record ? toAccount(record) : undefined;
    },
    extraTokenClaims: async (_ctx, token) => {
      const accountId = (token as { accountId?: string }).accountId;
      if (!accountId) return undefined;
      const record = await accounts.findById(accountId);
      if (!record) return undefined;
      return {
        typ: 'Bearer',
        azp: token.clientId,
        email: record.email,
        email_verified: record.emailVerified,
        name: record.name,
        picture: record.picture,
        preferred_username: record.email,
        realm_access: { roles: record.roles },
      };
    },
    /** First-party clients: consent is implicit, so the grant simply covers what is asked. */
    loadExistingGrant: async (ctx) => {
      const { oidc } = ctx;
      const client = oidc.client!;
      const accountId = oidc.session!.accountId!;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(client.clientId);
      let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      if (grant && (grant.accountId !== accountId || grant.clientId !== client.clientId)) grant = undefined;
      if (!FIRST_PARTY.has(client.clientId)) return grant;
      grant ??= new oidc.provider.Grant({ accountId, clientId: client.clientId });
      grant.addOIDCScope([...oidc.requestParamOIDCScopes]);
      const claims = [...oidc.requestParamClaims].filter((claim) => claim !== 'sub');
      if (claims.length) grant.addOIDCClaims(claims);
      for (const [indicator, server] of Object.entries(oidc.resourceServers ?? {})) {
        const scopes = [...oidc.requestParamScopes].filter((scope) => server.scopes.has(scope));
        grant.addResourceScope(indicator, scopes.join(' '));
      }
      await grant.save();
      return grant;
    },
    renderError: (ctx, out) => {
      const status = ctx.status >= 400 ? ctx.status : 400;
      const message = out.error_description ? `${out.error_description} (${out.error})` : out.error;
      pageOnContext(ctx, messagePage({ title: 'We are sorry…', message, status, site }));
    },
  };

  const provider = new Provider(issuer, configuration);

  // ---- redirect URIs: the registered exact ones, or any canonical URL under the client's own prefix
  type ClientPrototype = { clientId: string; redirectUriAllowed(value: string): boolean; postLogoutRedirectUriAllowed(value: string): boolean };
  const clientPrototype = provider.Client.prototype as unknown as ClientPrototype;
  const exactRedirect = clientPrototype.redirectUriAllowed;
  const exactPostLogout = clientPrototype.postLogoutRedirectUriAllowed;
  clientPrototype.redirectUriAllowed = function (this: ClientPrototype, value: string) {
    const prefix = redirectPrefixes.get(this.clientId);
    return exactRedirect.call(this, value) || (prefix !== undefined && isUnderPrefix(value, prefix));
  };
  clientPrototype.postLogoutRedirectUriAllowed = function (this: ClientPrototype, value: string) {
    const prefix = redirectPrefixes.get(this.clientId);
    return exactPostLogout.call(this, value) || (prefix !== undefined && isUnderPrefix(value, prefix));
  };

  // ---- refresh tokens leave as JWT envelopes (keycloak-js decodes them) and come back unwrapped
  type Valued = { value: string; payload?: { iat?: number; exp?: number } };
  type RefreshTokenStatics = {
    prototype: { getValueAndPayload(): Promise<Valued> };
    find(value: unknown, options?: unknown): Promise<unknown>;
  };
  const RefreshToken = provider.RefreshToken as unknown as RefreshTokenStatics;
  const opaqueValue = RefreshToken.prototype.getValueAndPayload;
  RefreshToken.prototype.getValueAndPayload = async function (this: {
    accountId?: string;
    clientId?: string;
    sid?: string;
    scope?: string;
  }) {
    const result = await opaqueValue.call(this);
    const value = envelope.wrap(result.value, {
      iat: result.payload?.iat ?? Math.floor(Date.now() / 1000),
      exp: result.payload?.exp,
      sub: this.accountId,
      azp: this.clientId,
      sid: this.sid,
      scope: this.scope,
    });
    return { ...result, value };
  };
  const findOpaque = RefreshToken.find;
  RefreshToken.find = function (this: RefreshTokenStatics, value: unknown, findOptions?: unknown) {
    return findOpaque.call(this, envelope.unwrap(value), findOptions);
  };

  // ---- forum-cli: resource owner password grant (Keycloak's "direct access grants")
  provider.registerGrantType(
    'password',
    async (ctx) => {
      const params = ctx.oidc.params as { username?: unknown; password?: unknown; scope?: unknown };
      const requested = typeof params.scope === 'string' && params.scope.trim() ? params.scope.trim().split(/\s+/) : ['openid'];
      const unsupported = requested.filter((scope) => !OIDC_SCOPES.includes(scope));
      if (unsupported.length) throw new errors.InvalidScope('requested scope is not allowed', unsupported.join(' '));
      if (typeof params.username !== 'string' || typeof params.password !== 'string' || !params.username || !params.password) {
        throw new errors.InvalidRequest("missing required parameters 'username' and 'password'");
      }
      const client = ctx.oidc.client;
      // throttled: 400 invalid_grant like any refused sign-in (Keycloak's answer), saying when to try again
      const refuseThrottled = (retryMs: number) => {
        log.info({ clientId: client.clientId, grantType: 'password' }, 'sign-in refused: too many failed attempts');
        ctx.set('Retry-After', String(Math.ceil(retryMs / 1000)));
        return new errors.CustomOIDCProviderError('invalid_grant', tooManyAttemptsMessage(retryMs));
      };
      const outcome = await passwordSignIn(ctx.req, params.username, params.password);
      if (outcome.result === 'held') throw refuseThrottled(outcome.retryMs);
      if (outcome.result === 'wrong') {
        if (outcome.retryMs) throw refuseThrottled(outcome.retryMs);
        log.info({ clientId: client.clientId, grantType: 'password' }, 'sign-in refused: invalid credentials');
        throw new errors.CustomOIDCProviderError('invalid_grant', 'Invalid user credentials');
      }
      const { record } = outcome;
      if (outcome.result === 'disabled') {
        log.info({ clientId: client.clientId, accountId: record.id, grantType: 'password' }, 'sign-in refused: account disabled');
        throw new errors.CustomOIDCProviderError('invalid_grant', 'Account disabled');
      }
      await promoteAdmin(record);
      // Keycloak's default client scopes apply even when not asked for
      const scopes = new Set(['openid', 'email', 'profile'].filter((s) => requested.includes(s) || s !== 'openid'));
      const scope = [...scopes].join(' ');

      const token = new provider.AccessToken({
        accountId: record.id,
        client,
        gty: 'password',
        grantId: undefined as unknown as string, // nothing to revoke: JWT access tokens are not stored
      });
      token.resourceServer = new provider.ResourceServer(audience, resourceServer);
      token.scope = scope;
      const accessToken = await token.save();

      let idToken: string | undefined;
      if (scopes.has('openid')) {
        const id = new provider.IdToken(idTokenClaims(record), { ctx });
        (id as unknown as { scope: string }).scope = scope;
        idToken = await id.issue({ use: 'idtoken' });
      }
      log.info({ clientId: client.clientId, accountId: record.id, grantType: 'password' }, 'signed in');
      ctx.body = {
        access_token: accessToken,
        expires_in: token.expiration,
        refresh_expires_in: 0,
        token_type: 'Bearer',
        ...(idToken ? { id_token: idToken } : {}),
        'not-before-policy': 0,
        scope,
      };
    },
    ['username', 'password', 'scope'],
  );

  // ---- logging: outcomes and error codes only, never credentials or tokens
  provider.on('server_error', (ctx, err) => log.error({ err, path: ctx.path }, 'identity provider error'));
  // Koa prints unhandled errors to stderr unless someone listens
  (provider as unknown as EventEmitter).on('error', (err: unknown) => log.error({ err }, 'identity provider error'));
  for (const event of ['grant.error', 'authorization.error', 'end_session.error', 'end_session_confirm.error'] as const) {
    provider.on(event as 'grant.error', (ctx: KoaContextWithOIDC, err: errors.OIDCProviderError) =>
      log.info({ event, path: ctx.path, error: err.error, description: err.error_description }, 'identity request refused'),
    );
  }
  // A sign-in that registered the account says so in its authorization response, as Keycloak reports an
  // application-initiated action's outcome (keycloak-js: onActionUpdate): the app greets it as a
  // registration even when it asked for a sign-in (the login page's Register link). `out` is the
  // response's parameters, still to be sent when this event is emitted.
  provider.on('authorization.success', ((ctx: KoaContextWithOIDC, out: Record<string, unknown>) => {
    if ((ctx.oidc.result as InteractionResults | undefined)?.[REGISTERED] === true) Object.assign(out, { kc_action: REGISTER_ACTION, kc_action_status: 'success' });
  }) as (ctx: KoaContextWithOIDC) => void);
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => log.info({ clientId: ctx.oidc.client?.clientId }, 'signed out'));

  const callback = provider.callback();

  // ---- access token check for our own userinfo endpoint (same rules as the services use)
  const publicKeys = new Map<string, KeyObject>();
  for (const jwk of secrets.signingKeys) {
    publicKeys.set(String((jwk as { kid?: string }).kid), createPublicKey({ key: publicJwk(jwk) as JsonWebKey, format: 'jwk' }));
  }
  const verifyAccessToken = createTokenVerifier({
    issuer,
    audience,
    keys: async (header) => {
      const key = header.kid ? publicKeys.get(header.kid) : undefined;
      if (!key) throw new Error('unknown signing key');
      return key;
    },
  });

  type Details = Awaited<ReturnType<Provider['interactionDetails']>>;
  const loginUrl = (uid: string) => `${REALM_PATH}${LOGIN_PATH}/${uid}`;
  const registerUrl = (uid: string) => `${REALM_PATH}${REGISTER_PATH}/${uid}`;
  const forgotUrl = (uid?: string) => `${REALM_PATH}${RESET_PATH}${uid ? `?interaction=${uid}` : ''}`;
  const googleButton = (uid: string): GoogleButton =>
    google ? { href: `${REALM_PATH}${BROKER_LOGIN_PATH}?interaction=${uid}` } : { unavailable: GOOGLE_UNCONFIGURED };

  async function userinfo(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'GET' && req.method !== 'POST') {
      sendJson(res, 405, { error: 'invalid_request', error_description: 'method not allowed' }, { Allow: 'GET, POST' });
      return;
    }
    const challenge = (error: string, description: string) => ({
      'WWW-Authenticate': `Bearer realm="forum", error="${error}", error_description="${description}"`,
    });
    const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(String(req.headers.authorization ?? ''));
    if (!match) {
      sendJson(res, 401, { error: 'invalid_request', error_description: 'Missing bearer token' }, {
        'WWW-Authenticate': 'Bearer realm="forum"',
      });
      return;
    }
    let subject: string;
    try {
      subject = (await verifyAccessToken(match[1]!)).subject;
    } catch {
      sendJson(res, 401, { error: 'invalid_token', error_description: 'Token verification failed' }, challenge('invalid_token', 'Token verification failed'));
      return;
    }
    const record = await accounts.findById(subject);
    if (!record) {
      sendJson(res, 401, { error: 'invalid_token', error_description: 'User not found' }, challenge('invalid_token', 'User not found'));
      return;
    }
    sendJson(res, 200, { ...idTokenClaims(record), realm_access: { roles: record.roles } });
  }

  const signedInPage = () =>
    messagePage({ title: 'You are signed in', message: 'You are already signed in to Forum.', link: { href: `${publicOrigin}/`, label: 'Back to the forum' }, site });

  function expiredPage(res: ServerResponse) {
    sendPage(
      res,
      messagePage({
        title: 'Your sign-in page has expired',
        message: 'Go back to the forum and sign in again.',
        status: 400,
        link: { href: `${publicOrigin}/`, label: 'Back to the forum' },
        site,
      }),
    );
  }

  /**
   * The pending sign-in `uid` of this browser (oidc-provider's signed interaction cookie), or null
   * when the answer was sent: the expired page, or the consent step done without a screen.
   */
  async function pendingLogin(req: IncomingMessage, res: ServerResponse, uid: string | null): Promise<Details | null> {
    let details: Details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      // Back to a sign-in page after signing in: say so, rather than that the page expired
      const session = await provider.Session.get(provider.createContext(req, res));
      if (session.accountId) sendPage(res, signedInPage());
      else expiredPage(res);
      return null;
    }
    if (details.uid !== uid) {
      expiredPage(res);
      return null;
    }
    if (details.prompt.name === 'consent') {
      await finishConsent(req, res, details);
      return null;
    }
    if (details.prompt.name !== 'login') {
      expiredPage(res);
      return null;
    }
    return details;
  }

  /** Only reached for clients loadExistingGrant does not cover: grant what is missing, no screen. */
  async function finishConsent(req: IncomingMessage, res: ServerResponse, details: Details) {
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const accountId = details.session?.accountId;
    const clientId = String(details.params.client_id);
    if (!accountId || !FIRST_PARTY.has(clientId)) {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'consent required' });
      return;
    }
    const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope);
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  function loginView(uid: string, options: { email: string; error?: string; info?: string[]; status?: number }): Page {
    return loginPage({
      action: loginUrl(uid),
      csrf: csrf.forInteraction('login', uid),
      email: options.email,
      error: options.error,
      info: options.info,
      status: options.status,
      registerUrl: registerUrl(uid),
      resetUrl: forgotUrl(uid),
      google: googleButton(uid),
      site,
    });
  }

  /** `registered`: the account was made by this sign-in (the authorization response says so, see below). */
  async function signIn(req: IncomingMessage, res: ServerResponse, details: Details, record: AccountRecord, how: string, amr?: string[], registered = false) {
    await promoteAdmin(record);
    log.info({ clientId: details.params.client_id, accountId: record.id, method: how }, 'signed in');
    const result: InteractionResults = { login: { accountId: record.id, ...(amr ? { amr } : {}) }, ...(registered ? { [REGISTERED]: true } : {}) };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  async function login(req: IncomingMessage, res: ServerResponse, uid: string) {
    if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed(res, 'GET, POST');
    const details = await pendingLogin(req, res, uid);
    if (!details) return;

    const flashKey = `login:${uid}`;
    if (req.method === 'GET') {
      const refused = await flash.take<LoginFlash>(flashKey);
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint.slice(0, 254) : '';
      sendPage(res, loginView(uid, refused ?? { email: hint }));
      return;
    }

    const form = await readForm(req);
    const email = normalizeEmail(form?.get('email') ?? '');
    /** Post-redirect-get: the page shows the refusal once, with the address typed (never the password). */
    const refuse = async (error: string, status?: number) => {
      await flash.put<LoginFlash>(flashKey, { email, error, status });
      redirect(res, loginUrl(uid));
    };
    if (!form || !csrf.validForInteraction('login', uid, form.get('csrf'))) return refuse('Your session has expired. Please sign in again.', 403);
    const outcome = await passwordSignIn(req, email, form.get('password') ?? '');
    if (outcome.result === 'held') {
      log.info({ clientId: details.params.client_id }, 'sign-in refused: too many failed attempts');
      return refuse(tooManyAttemptsMessage(outcome.retryMs), 429);
    }
    if (outcome.result === 'wrong') {
      const wait = outcome.retryMs;
      log.info({ clientId: details.params.client_id, held: wait > 0 }, 'sign-in refused: invalid credentials');
      return wait ? refuse(tooManyAttemptsMessage(wait), 429) : refuse(INVALID_CREDENTIALS_MESSAGE);
    }
    if (outcome.result === 'disabled') {
      log.info({ accountId: outcome.record.id }, 'sign-in refused: account disabled');
      return refuse(DISABLED_MESSAGE, 403);
    }
    await signIn(req, res, details, outcome.record, 'password', ['pwd']);
  }

  // ---- registration (keycloak-js register(), the login page's Register link)
  async function register(req: IncomingMessage, res: ServerResponse, uid: string) {
    if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed(res, 'GET, POST');
    const details = await pendingLogin(req, res, uid);
    if (!details) return;
    const view = (values: { name: string; photo: string; email: string }, errors: Partial<Record<RegisterField, string>> = {}, error?: string, status?: number) =>
      registerPage({
        action: registerUrl(uid),
        csrf: csrf.forInteraction('register', uid),
        values,
        errors,
        error,
        status,
        loginUrl: loginUrl(uid),
        google: googleButton(uid),
        site,
      });

    const flashKey = `register:${uid}`;
    if (req.method === 'GET') {
      const refused = await flash.take<RegisterFlash>(flashKey);
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint.slice(0, 254) : '';
      sendPage(res, refused ? view(refused.values, refused.errors, refused.error, refused.status) : view({ name: '', photo: '', email: hint }));
      return;
    }

    const form = await readForm(req);
    // the forum's text policy (contracts): what it keeps is what the account stores
    const name = checkText(form?.get('name') ?? '', { ...ACCOUNT_NAME, required: 'Name is required.' });
    const photo = checkPhotoUrl(form?.get('photo') ?? '', publicOrigin, { required: 'Photo URL is required.' });
    const typed = (field: string) => Array.from((form?.get(field) ?? '').trim()).slice(0, 4096).join('');
    const values = {
      name: name.ok ? name.value : typed('name'),
      photo: photo.ok ? photo.value : typed('photo'),
      email: normalizeEmail(form?.get('email') ?? ''),
    };
    /** Post-redirect-get: the page shows the refusal once, with what was typed (never the passwords). */
    const refuse = async (errors: Partial<Record<RegisterField, string>>, error?: string, status?: number) => {
      await flash.put<RegisterFlash>(flashKey, { values, errors, error, status });
      redirect(res, registerUrl(uid));
    };
    if (!form || !csrf.validForInteraction('register', uid, form.get('csrf'))) return refuse({}, 'Your session has expired. Please try again.', 403);
    const password = form.get('password') ?? '';
    const confirm = form.get('password-confirm') ?? '';
    const errors: Partial<Record<RegisterField, string>> = {};
    if (!name.ok) errors.name = name.message;
    if (!photo.ok) errors.photo = photo.message;
    if (!values.email) errors.email = 'Email is required.';
    else if (!isEmail(values.email)) errors.email = 'Enter a valid email address.';
    const problem = passwordProblem(password);
    if (problem) errors.password = problem;
    else if (password !== confirm) errors['password-confirm'] = PASSWORD_MISMATCH_MESSAGE;
    if (Object.keys(errors).length > 0) return refuse(errors, undefined, 400);

    const address = clientAddress(req, trustProxy);
    const wait = await throttle.registrationAttempted(address);
    if (wait) return refuse({}, tooManyRequestsMessage(wait), 429);
    let id: string;
    try {
      ({ id } = await createAccount({ email: values.email, password, name: values.name, picture: values.photo }));
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      return refuse({ email: DUPLICATE_EMAIL_MESSAGE }, undefined, 409);
    }
    await backoff.proven(values.email, address);
    const record = (await accounts.findById(id))!;
    log.info({ clientId: details.params.client_id, accountId: id }, 'account registered');
    inBackground(() => sendVerificationMail(record));
    await signIn(req, res, details, record, 'registration', ['pwd'], true);
  }

  // ---- forgot password: the same answer whether or not the account exists; the work happens afterwards
  const background = new Set<Promise<void>>();
  function inBackground(work: () => Promise<void>) {
    const job = work()
      .catch((err: unknown) => log.error({ err }, 'identity background job failed'))
      .finally(() => background.delete(job));
    background.add(job);
  }

  /** A one-time link for `account` (only its hash is kept), in the mail `compose` writes around it. */
  async function mailLink(
    account: AccountRecord,
    action: { kind: string; path: string; ttlSeconds: number; interactionUid: string | null },
    compose: (link: string) => { subject: string; text: string; html: string },
  ) {
    const token = await accounts.issueActionToken(action.kind, account.id, action.ttlSeconds, action.interactionUid);
    const link = `${issuer}${action.path}?key=${token}`;
    await mailer.send({ to: account.email, ...compose(link), link });
  }

  async function sendResetMail(email: string, interactionUid: string | null) {
    if (!(await throttle.resetMailAllowed(email))) {
      log.info('password reset mail not sent: too many for this email');
      return;
    }
    const account = await accounts.findByEmail(email);
    if (!account || !account.enabled) {
      log.info('password reset requested for an email without an (enabled) account');
      return;
    }
    const minutes = RESET_TOKEN_TTL_SECONDS / 60;
    await mailLink(account, { kind: RESET_TOKEN_KIND, path: ACTION_TOKEN_PATH, ttlSeconds: RESET_TOKEN_TTL_SECONDS, interactionUid }, (link) => ({
      subject: 'Reset your Forum password',
      text: `Hello ${account.name},\n\nSomeone (hopefully you) asked to reset the password of your Forum account ${account.email}.\n\nOpen this link within ${minutes} minutes to choose a new password:\n${link}\n\nThe link works once. If you did not ask for this, ignore this mail: your password stays as it is.\n`,
      html: `<p>Hello ${escapeHtml(account.name)},</p><p>Someone (hopefully you) asked to reset the password of your Forum account ${escapeHtml(account.email)}.</p><p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works once, for ${minutes} minutes).</p><p>If you did not ask for this, ignore this mail: your password stays as it is.</p>`,
    }));
    log.info({ accountId: account.id }, 'password reset mail sent');
  }

  async function forgotPassword(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed(res, 'GET, POST');
    const form = req.method === 'POST' ? await readForm(req) : null;
    const given = form?.get('interaction') ?? query.get('interaction');
    const uid = given && UID.test(given) ? given : undefined;
    const view = (email: string, error?: string, status?: number) =>
      forgotPasswordPage({
        action: `${REALM_PATH}${RESET_PATH}`,
        csrf: csrf.issue(req, res, 'forgot'),
        email,
        interaction: uid,
        error,
        status,
        loginUrl: uid ? loginUrl(uid) : undefined,
        site,
        join: uid ? { login: loginUrl(uid), register: registerUrl(uid) } : undefined,
      });
    // no pending sign-in to key the flash by (the form works without one): this browser's own cookie
    const flashKey = `forgot:${csrf.browserKey(req, res)}`;
    if (req.method === 'GET') {
      const shown = await flash.take<ForgotFlash>(flashKey);
      if (shown?.sent) return sendPage(res, resetRequestedPage({ lines: [RESET_SENT_MESSAGE, RESET_NEUTRAL_MESSAGE], loginUrl: uid ? loginUrl(uid) : undefined, site }));
      if (shown) return sendPage(res, view(shown.email, shown.error, shown.status));
      const hint = query.get('email') ?? '';
      sendPage(res, view(isEmail(normalizeEmail(hint)) ? normalizeEmail(hint) : ''));
      return;
    }
    const email = normalizeEmail(form?.get('email') ?? '');
    /** Post-redirect-get: the outcome is shown once by the form's GET page. */
    const answer = async (outcome: ForgotFlash) => {
      await flash.put<ForgotFlash>(flashKey, outcome);
      redirect(res, forgotUrl(uid));
    };
    if (!form || !csrf.valid(req, 'forgot', form.get('csrf'))) return answer({ email, error: 'Your session has expired. Please try again.', status: 403 });
    if (!isEmail(email)) return answer({ email, error: 'Enter a valid email address.', status: 400 });
    const wait = await throttle.resetRequested(clientAddress(req, trustProxy));
    if (wait) return answer({ email, error: tooManyRequestsMessage(wait), status: 429 });
    inBackground(() => sendResetMail(email, uid ?? null));
    await answer({ email: '', sent: true });
  }

  // ---- email verification: the link registration mails; following it proves the mailbox
  async function sendVerificationMail(account: AccountRecord) {
    const hours = EMAIL_VERIFICATION_TTL_SECONDS / 3600;
    await mailLink(account, { kind: VERIFY_TOKEN_KIND, path: VERIFY_EMAIL_PATH, ttlSeconds: EMAIL_VERIFICATION_TTL_SECONDS, interactionUid: null }, (link) => ({
      subject: 'Confirm your email address for Forum',
      text: `Hello ${account.name},\n\nWelcome to Forum! Please confirm that ${account.email} is your email address by opening this link:\n${link}\n\nThe link works once, for ${hours} hours. If you did not create a Forum account, ignore this mail: nothing happens.\n`,
      html: `<p>Hello ${escapeHtml(account.name)},</p><p>Welcome to Forum! Please confirm that ${escapeHtml(account.email)} is your email address.</p><p><a href="${escapeHtml(link)}">Confirm my email address</a> (the link works once, for ${hours} hours).</p><p>If you did not create a Forum account, ignore this mail: nothing happens.</p>`,
    }));
    log.info({ accountId: account.id }, 'email verification mail sent');
  }

  const confirmedPage = (email: string) =>
    messagePage({
      title: 'Your email address is confirmed',
      message: `Thank you: ${email} is confirmed as the address of your account.`,
      link: { href: `${publicOrigin}/`, label: 'Back to the forum' },
      site,
    });
  const invalidVerificationPage = () =>
    messagePage({ title: 'This link is not valid', message: 'This link to confirm an email address is not valid. Check that you opened the whole link from the mail.', status: 400, site });

  async function verifyEmail(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method === 'POST') return resendVerification(req, res);
    if (req.method !== 'GET') return methodNotAllowed(res, 'GET, POST');
    const key = (query.get('key') ?? '').slice(0, 128);
    const used = await accounts.useActionToken(VERIFY_TOKEN_KIND, key, (accountId, trx) => accounts.markEmailVerified(accountId, trx));
    if (used.status === 'unknown') return sendPage(res, invalidVerificationPage());
    const record = used.status === 'valid' ? await emailProven(used.accountId) : await accounts.findById(used.accountId);
    if (!record) return sendPage(res, invalidVerificationPage());
    if (used.status === 'valid') log.info({ accountId: record.id }, 'email verified');
    // a link used already (a mail scanner may open links first) or expired after the address was confirmed: say so
    if (record.emailVerified) return sendPage(res, confirmedPage(record.email));
    sendPage(
      res,
      messagePage({
        title: 'This link has expired',
        message: `Links to confirm your email address work for ${EMAIL_VERIFICATION_TTL_SECONDS / 3600} hours. We can send you a new one.`,
        form: { action: `${REALM_PATH}${VERIFY_EMAIL_PATH}`, fields: { csrf: csrf.issue(req, res, 'verify'), key }, button: 'Send a new link' },
        status: 410,
        site,
      }),
    );
  }

  async function resendVerification(req: IncomingMessage, res: ServerResponse) {
    const form = await readForm(req);
    const key = (form?.get('key') ?? '').slice(0, 128);
    if (!form || !csrf.valid(req, 'verify', form.get('csrf'))) {
      sendPage(res, messagePage({ title: 'Your session has expired', message: 'Open the link from the mail again.', status: 403, site }));
      return;
    }
    const state = await accounts.inspectActionToken(VERIFY_TOKEN_KIND, key);
    const record = state.status === 'unknown' ? null : await accounts.findById(state.accountId);
    if (!record) return sendPage(res, invalidVerificationPage());
    if (record.emailVerified) return sendPage(res, confirmedPage(record.email));
    const wait = await throttle.verificationMailRequested(record.email);
    if (wait) {
      sendPage(res, messagePage({ title: 'Please wait a little', message: tooManyRequestsMessage(wait), status: 429, site }));
      return;
    }
    inBackground(() => sendVerificationMail(record));
    sendPage(
      res,
      resetRequestedPage({ lines: [`We sent a new link to ${record.email}. It works once, for ${EMAIL_VERIFICATION_TTL_SECONDS / 3600} hours.`], site }),
    );
  }

  function refusedLinkPage(res: ServerResponse, status: 'used' | 'expired' | 'unknown') {
    const text = {
      used: { title: 'This link was already used', message: 'This password reset link has already been used. Request a new one if you still need to reset your password.', code: 410 },
      expired: { title: 'This link has expired', message: `Password reset links work for ${RESET_TOKEN_TTL_SECONDS / 60} minutes. Request a new one.`, code: 410 },
      unknown: { title: 'This link is not valid', message: 'This password reset link is not valid. Request a new one.', code: 400 },
    }[status];
    sendPage(res, messagePage({ title: text.title, message: text.message, status: text.code, link: { href: forgotUrl(), label: 'Request a new link' }, site }));
  }

  /** Where a reset ends; `pending`: the sign-in that was under way when the link was asked for, if it still is. */
  const passwordUpdatedPage = (pending: string | null) =>
    messagePage({
      title: 'Your password has been updated',
      message: 'You can now sign in with your new password.',
      link: pending ? { href: loginUrl(pending), label: 'Sign in' } : { href: `${publicOrigin}/`, label: 'Back to the forum' },
      site,
    });

  async function resetPassword(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed(res, 'GET, POST');
    const form = req.method === 'POST' ? await readForm(req) : null;
    const key = (form?.get('key') ?? query.get('key') ?? '').slice(0, 128);
    const flashKey = `reset:${key}`;
    // the outcome of this link's form, once (it may have used the link: shown before the link is checked)
    const shown = req.method === 'GET' && key ? await flash.take<ResetFlash>(flashKey) : null;
    if (shown && 'updated' in shown) return sendPage(res, passwordUpdatedPage(shown.updated.pending));
    const state = await accounts.inspectActionToken(RESET_TOKEN_KIND, key);
    if (state.status !== 'valid') return refusedLinkPage(res, state.status);
    const account = await accounts.findById(state.accountId);
    if (!account) return refusedLinkPage(res, 'unknown');
    const view = (errors: Partial<Record<'password' | 'password-confirm', string>>, error?: string, status?: number) =>
      resetPasswordPage({
        action: `${REALM_PATH}${ACTION_TOKEN_PATH}`,
        csrf: csrf.issue(req, res, 'reset'),
        key,
        email: account.email,
        errors,
        error,
        status,
        site,
      });
    if (req.method === 'GET') {
      sendPage(res, shown ? view(shown.errors, shown.error, shown.status) : view({}));
      return;
    }
    /** Post-redirect-get: the link's page shows the outcome once (never the passwords). */
    const answer = async (outcome: ResetFlash) => {
      await flash.put<ResetFlash>(flashKey, outcome);
      redirect(res, `${REALM_PATH}${ACTION_TOKEN_PATH}?key=${encodeURIComponent(key)}`);
    };
    if (!form || !csrf.valid(req, 'reset', form.get('csrf'))) return answer({ errors: {}, error: 'Your session has expired. Please try again.', status: 403 });
    const password = form.get('password') ?? '';
    const problem = passwordProblem(password);
    if (problem || password !== (form.get('password-confirm') ?? '')) {
      return answer({ errors: problem ? { password: problem } : { 'password-confirm': PASSWORD_MISMATCH_MESSAGE }, status: 400 });
    }
    const used = await accounts.useActionToken(RESET_TOKEN_KIND, key, async (accountId, trx) => {
      await accounts.setPassword(accountId, password, trx);
      await accounts.markEmailVerified(accountId, trx); // the link came through the mailbox (Keycloak does the same)
    });
    if (used.status !== 'valid') return refusedLinkPage(res, used.status);
    await emailProven(account.id);
    await backoff.proven(account.email, clientAddress(req, trustProxy)); // the owner of the mailbox is at this address
    log.info({ accountId: account.id }, 'password reset');
    const pending = used.interactionUid && (await provider.Interaction.find(used.interactionUid)) ? used.interactionUid : null;
    await answer({ updated: { pending } });
  }

  // ---- Google
  async function brokerLogin(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
    const uid = query.get('interaction');
    const details = await pendingLogin(req, res, uid && UID.test(uid) ? uid : null);
    if (!details) return;
    if (!google) {
      sendPage(res, loginView(details.uid, { email: '', error: GOOGLE_UNCONFIGURED, status: 404 }));
      return;
    }
    let location: string;
    try {
      const hint = typeof details.params.login_hint === 'string' && isEmail(normalizeEmail(details.params.login_hint)) ? normalizeEmail(details.params.login_hint) : undefined;
      location = await google.start(details.uid, hint);
    } catch (err) {
      log.warn({ err }, 'Google sign-in could not start');
      sendPage(res, loginView(details.uid, { email: '', error: 'Google sign-in is not available right now. Please try again later.', status: 502 }));
      return;
    }
    redirect(res, location);
  }

  async function brokerEndpoint(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
    if (!google) {
      sendPage(res, messagePage({ title: 'Not found', message: GOOGLE_UNCONFIGURED, status: 404, site }));
      return;
    }
    const claimed = await google.claimState(query.get('state'));
    if (!claimed) return expiredPage(res);
    // the browser that started this sign-in must be the one finishing it
    const details = await pendingLogin(req, res, claimed.interactionUid);
    if (!details) return;
    const uid = details.uid;
    const refuse = (error: string, status: number) => sendPage(res, loginView(uid, { email: '', error, status }));

    let identity;
    try {
      identity = await google.finish(query, claimed);
    } catch (err) {
      if (err instanceof BrokerError) return refuse(err.message, err.reason === 'cancelled' ? 200 : 400);
      throw err;
    }
    let record = await accounts.findLinked(GOOGLE, identity.subject);
    let created = false;
    if (!record) {
      if (!identity.emailVerified) {
        log.info({ provider: GOOGLE }, 'sign-in refused: upstream email not verified');
        return refuse(UNVERIFIED_GOOGLE_MESSAGE, 403);
      }
      record = await accounts.findByEmail(identity.email);
      if (!record) {
        // Google's name when the forum's text policy takes it (cut to its length), else the email's local part
        const name = checkText(fitAccountName(identity.name), ACCOUNT_NAME);
        try {
          await createAccount({
            email: identity.email,
            password: null,
            name: name.ok ? name.value : identity.email.split('@')[0]!,
            picture: checkPhotoUrl(identity.picture, publicOrigin).ok ? identity.picture : '',
            emailVerified: true,
          });
          created = true;
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err; // made meanwhile: use it
        }
        record = await accounts.findByEmail(identity.email);
        if (!record) throw new Error('account vanished after creation');
      } else if (!record.emailVerified && (await accounts.takeBackUnverified(record.id))) {
        // whoever registered this address first never proved it (account pre-hijacking): Google proves the
        // mailbox, so its owner gets the account and the first registrant's password and sign-ins end (Firebase's rule)
        await backoff.forgetFamiliar(record.email);
        log.info({ accountId: record.id, provider: GOOGLE }, 'unverified account taken back by the verified owner: password dropped, sessions ended');
        record = (await accounts.findById(record.id))!;
      }
      await accounts.link(GOOGLE, identity.subject, record.id, identity.email);
    }
    if (!record.enabled) {
      log.info({ accountId: record.id }, 'sign-in refused: account disabled');
      return refuse(DISABLED_MESSAGE, 403);
    }
    if (created) log.info({ accountId: record.id, provider: GOOGLE }, 'account registered');
    await backoff.proven(record.email, clientAddress(req, trustProxy));
    await signIn(req, res, details, record, GOOGLE);
  }

  // ---- development mailbox
  async function mailbox(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
    if (mailer.mode !== 'mailbox') {
      sendPage(res, messagePage({ title: 'Not found', message: 'This realm sends its mail through SMTP; there is no local mailbox.', status: 404, site }));
      return;
    }
    if (!isLocalRequest(req)) {
      sendPage(res, messagePage({ title: 'Not available', message: 'The development mailbox can only be opened from this machine.', status: 403, site }));
      return;
    }
    sendPage(res, mailboxPage(await mailer.recent(50), site));
  }

  /** keycloak-js register(): the usual authorization request on another path; the pending sign-in starts on the register page. */
  function registrations(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
    query.delete('forum_screen');
    query.set('forum_screen', 'register');
    redirect(res, `${REALM_PATH}${OIDC}/auth?${query.toString()}`);
  }

  /** Answers CORS for the allowed origins with credentials; true when the request (a preflight) is done. */
  function cors(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    const origin = req.headers.origin;
    if (!origin || !CREDENTIALED_CORS_PATHS.has(path) || !allowedOrigins.has(origin)) return false;
    appendVary(res, 'Origin');
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      const asked = String(req.headers['access-control-request-headers'] ?? '');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+)*$/.test(asked) ? asked : 'Authorization, Content-Type');
      res.setHeader('Access-Control-Max-Age', '3600');
      res.statusCode = 204;
      res.end();
      return true;
    }
    res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate');
    return false;
  }

  async function route(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) {
    // mounted by express the prefix is already gone; on a bare server strip it here
    if (req.originalUrl === undefined && req.url && (req.url === REALM_PATH || /^\/realms\/forum[/?]/.test(req.url))) {
      const rest = req.url.slice(REALM_PATH.length);
      req.originalUrl = req.url;
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
    }
    const url = new URL(req.url ?? '/', 'http://realm.invalid');
    const path = url.pathname;

    if (cors(req, res, path)) return;

    if (path === `${OIDC}/userinfo`) return userinfo(req, res);
    if (path === `${OIDC}/3p-cookies/step1.html` || path === `${OIDC}/3p-cookies/step2.html`) {
      sendPage(res, cookiesProbe, { framed: true });
      return;
    }
    if (path === `${OIDC}/registrations`) return registrations(req, res, url.searchParams);
    if (path.startsWith(`${LOGIN_PATH}/`)) {
      const uid = path.slice(LOGIN_PATH.length + 1);
      if (UID.test(uid)) return login(req, res, uid);
    }
    if (path.startsWith(`${REGISTER_PATH}/`)) {
      const uid = path.slice(REGISTER_PATH.length + 1);
      if (UID.test(uid)) return register(req, res, uid);
    }
    if (path === REGISTER_PATH) {
      // the old link shape: /login-actions/registration?interaction=…
      const uid = url.searchParams.get('interaction');
      if (uid && UID.test(uid)) return redirect(res, registerUrl(uid));
      return expiredPage(res);
    }
    if (path === RESET_PATH) return forgotPassword(req, res, url.searchParams);
    if (path === ACTION_TOKEN_PATH) return resetPassword(req, res, url.searchParams);
    if (path === VERIFY_EMAIL_PATH) return verifyEmail(req, res, url.searchParams);
    if (path === BROKER_LOGIN_PATH) return brokerLogin(req, res, url.searchParams);
    if (path === BROKER_ENDPOINT_PATH) return brokerEndpoint(req, res, url.searchParams);
    if (path === MAILBOX_PATH) return mailbox(req, res);
    res.setHeader('Content-Security-Policy', providerPolicy);
    await callback(req, res);
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((err: unknown) => {
      log.error({ err }, 'identity request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'server_error', error_description: 'Something went wrong' });
      else res.end();
    });
  };

  const adminHandler = createAdminHandler({ publicOrigin, accounts, createAccount, verifyAccessToken, log, hooks: options.accountHooks });

  async function cleanupRecords() {
    await deleteExpired(db);
    await deleteExpiredBrokerStates(db);
    await deleteExpiredLimits(db);
    await deleteExpiredBackoff(db);
    await deleteExpiredFlashes(db);
    await deleteOldMail(db);
    await db.raw(`DELETE FROM ${SCHEMA}.action_tokens WHERE expires_at < now() - interval '1 day'`);
  }
  const cleanup = setInterval(() => {
    cleanupRecords().catch((err: unknown) => log.warn({ err }, 'could not delete expired identity records'));
  }, CLEANUP_EVERY_MS);
  cleanup.unref();

  log.info({ issuer, google: google !== null, mail: mailer.mode }, 'identity realm ready');

  return {
    issuer,
    handler,
    adminHandler,
    accounts: {
      create: (input) => createAccount(input),
      findByEmail: async (email) => {
        const record = await accounts.findByEmail(email);
        return record && { id: record.id, email: record.email, name: record.name, picture: record.picture, roles: record.roles };
      },
      remove: (id) => accounts.delete(id),
    },
    async close() {
      clearInterval(cleanup);
      await Promise.allSettled([...background]);
      mailer.close();
    },
  };
}

