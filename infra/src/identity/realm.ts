import { createHmac, createPublicKey, timingSafeEqual, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createTokenVerifier, type Knex, type Logger } from '@forum/platform';
import Provider, {
  errors,
  type Account,
  type ClientMetadata,
  type Configuration,
  type JWK,
  type KoaContextWithOIDC,
  type ResourceServer,
} from 'oidc-provider';
import { deleteExpired, postgresAdapter } from './adapter.ts';
import { loginPage, logoutPage, messagePage, THIRD_PARTY_COOKIES_HTML, type Page } from './pages.ts';
import { refreshEnvelope } from './refresh-token.ts';
import { createAccountStore, prepareStore, type AccountRecord } from './store.ts';

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
}

export interface IdentityRealm {
  readonly issuer: string;
  /** plain Node request handler; the gateway mounts it with express `app.use('/realms/forum', realm.handler)` */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  readonly accounts: {
    create(input: { email: string; password: string; name: string; picture?: string; roles?: string[] }): Promise<{ id: string }>;
    findByEmail(email: string): Promise<{ id: string; email: string; name: string; picture: string; roles: string[] } | null>;
  };
  close(): Promise<void>;
}

/** Where the realm lives under the public origin (Keycloak's layout). */
export const REALM_PATH = '/realms/forum';
const OIDC = '/protocol/openid-connect';
const LOGIN_PATH = '/login-actions/authenticate';
const REGISTER_PATH = '/login-actions/registration';
const RESET_PATH = '/login-actions/reset-credentials';

const SSO_SESSION_MAX_SECONDS = 10 * 60 * 60;
const SSO_SESSION_IDLE_SECONDS = 30 * 60;
const INTERACTION_TTL_SECONDS = 30 * 60;
const CLEANUP_EVERY_MS = 10 * 60_000;
const FORM_LIMIT_BYTES = 16 * 1024;

const FIRST_PARTY = new Set(['forum-web', 'admin-web', 'forum-cli']);
const OIDC_SCOPES = ['openid', 'email', 'profile'];
const UID = /^[A-Za-z0-9_-]{1,64}$/;

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

async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > FORM_LIMIT_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function sendPage(res: ServerResponse, page: Page) {
  res.statusCode = page.status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', page.csp);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.end(page.html);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(JSON.stringify(body));
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

function appendVary(res: ServerResponse, field: string) {
  const current = String(res.getHeader('Vary') ?? '');
  if (!current.split(',').some((v) => v.trim().toLowerCase() === field.toLowerCase())) {
    res.setHeader('Vary', current ? `${current}, ${field}` : field);
  }
}

export async function createIdentityRealm(options: IdentityRealmOptions): Promise<IdentityRealm> {
  const publicOrigin = new URL(options.publicOrigin).origin;
  const issuer = `${publicOrigin}${REALM_PATH}`;
  const { audience, db } = options;
  const accessTokenTtl = options.accessTokenTtlSeconds ?? 300;
  if (!Number.isSafeInteger(accessTokenTtl) || accessTokenTtl <= 0) throw new TypeError('accessTokenTtlSeconds must be a positive integer');
  const log = options.logger.child({ component: 'identity-realm' });

  const secrets = await prepareStore(db);
  const accounts = createAccountStore(db);
  const envelope = refreshEnvelope(secrets.refreshTokenKey, issuer);
  const csrfKey = Buffer.from(secrets.cookieKeys[0] ?? '', 'base64url');
  const allowedOrigins = new Set([publicOrigin]);
  const formTargets = [...allowedOrigins];

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
      short: { httpOnly: true, sameSite: 'lax' },
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
        logoutSource: (ctx, form) => pageOnContext(ctx, logoutPage(form, formTargets)),
        postLogoutSuccessSource: (ctx) =>
          pageOnContext(ctx, messagePage({ title: 'Signed out', message: 'You have been signed out.', formTargets })),
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
    interactions: {
      url: (_ctx, interaction) => `${REALM_PATH}${LOGIN_PATH}/${interaction.uid}`,
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
      pageOnContext(ctx, messagePage({ title: 'We are sorry…', message, status, formTargets }));
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
      const record = await accounts.authenticate(params.username, params.password);
      if (!record) {
        log.info({ clientId: client.clientId, grantType: 'password' }, 'sign-in refused: invalid credentials');
        throw new errors.CustomOIDCProviderError('invalid_grant', 'Invalid user credentials');
      }
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

  const csrfFor = (uid: string) => createHmac('sha256', csrfKey).update(`login:${uid}`).digest('base64url');
  const csrfValid = (uid: string, given: unknown) => {
    if (typeof given !== 'string') return false;
    const expected = Buffer.from(csrfFor(uid));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  };

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

  async function login(req: IncomingMessage, res: ServerResponse, uid: string) {
    const expired = () =>
      sendPage(
        res,
        messagePage({
          title: 'Your sign-in page has expired',
          message: 'Go back to the forum and sign in again.',
          status: 400,
          link: { href: `${publicOrigin}/`, label: 'Back to the forum' },
          formTargets,
        }),
      );
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.statusCode = 405;
      res.setHeader('Allow', 'GET, POST');
      res.end();
      return;
    }
    let details: Awaited<ReturnType<Provider['interactionDetails']>>;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      expired();
      return;
    }
    if (details.uid !== uid) {
      expired();
      return;
    }

    if (details.prompt.name === 'consent') {
      // only reached for clients loadExistingGrant does not cover: grant what is missing, no screen
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
      return;
    }
    if (details.prompt.name !== 'login') {
      expired();
      return;
    }

    const action = `${REALM_PATH}${LOGIN_PATH}/${uid}`;
    const view = (email: string, error?: string) =>
      loginPage({
        action,
        csrf: csrfFor(uid),
        email,
        error,
        registerUrl: `${REALM_PATH}${REGISTER_PATH}?interaction=${uid}`,
        resetUrl: `${REALM_PATH}${RESET_PATH}?interaction=${uid}`,
        formTargets,
      });

    if (req.method === 'GET') {
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint.slice(0, 254) : '';
      sendPage(res, view(hint));
      return;
    }

    const form = await readForm(req);
    const email = (form?.get('email') ?? '').trim().slice(0, 254);
    if (!form || !csrfValid(uid, form.get('csrf'))) {
      sendPage(res, { ...view(email, 'Your session has expired. Please sign in again.'), status: 403 });
      return;
    }
    const record = await accounts.authenticate(email, form.get('password') ?? '');
    if (!record) {
      log.info({ clientId: details.params.client_id }, 'sign-in refused: invalid credentials');
      sendPage(res, view(email, 'Invalid email or password.'));
      return;
    }
    log.info({ clientId: details.params.client_id, accountId: record.id }, 'signed in');
    await provider.interactionFinished(req, res, { login: { accountId: record.id, amr: ['pwd'] } }, { mergeWithLastSubmission: false });
  }

  function placeholder(res: ServerResponse, title: string, message: string, query: URLSearchParams) {
    const uid = query.get('interaction');
    const link = uid && UID.test(uid) ? { href: `${REALM_PATH}${LOGIN_PATH}/${uid}`, label: 'Back to sign in' } : { href: `${publicOrigin}/`, label: 'Back to the forum' };
    sendPage(res, messagePage({ title, message, link, formTargets }));
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
      res.statusCode = 200;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      res.end(THIRD_PARTY_COOKIES_HTML);
      return;
    }
    if (path.startsWith(`${LOGIN_PATH}/`)) {
      const uid = path.slice(LOGIN_PATH.length + 1);
      if (UID.test(uid)) return login(req, res, uid);
    }
    if (path === REGISTER_PATH || path === `${OIDC}/registrations`) {
      return placeholder(res, 'Create an account', 'Registration is not open yet. Please check back soon.', url.searchParams);
    }
    if (path === RESET_PATH) {
      return placeholder(res, 'Forgot your password?', 'Password reset is not available yet. Please contact an administrator.', url.searchParams);
    }
    await callback(req, res);
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((err: unknown) => {
      log.error({ err }, 'identity request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'server_error', error_description: 'Something went wrong' });
      else res.end();
    });
  };

  const cleanup = setInterval(() => {
    deleteExpired(db).catch((err: unknown) => log.warn({ err }, 'could not delete expired identity records'));
  }, CLEANUP_EVERY_MS);
  cleanup.unref();

  log.info({ issuer }, 'identity realm ready');

  return {
    issuer,
    handler,
    accounts: {
      create: (input) => accounts.create(input),
      findByEmail: async (email) => {
        const record = await accounts.findByEmail(email);
        return record && { id: record.id, email: record.email, name: record.name, picture: record.picture, roles: record.roles };
      },
    },
    async close() {
      clearInterval(cleanup);
    },
  };
}
