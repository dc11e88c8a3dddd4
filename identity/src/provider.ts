import type { EventEmitter } from 'node:events';
import Provider, { errors, type Account, type ClientMetadata, type Configuration, type KoaContextWithOIDC, type ResourceServer } from './oidc-provider.ts';
import { REGISTER_ACTION } from '@forum/contracts';
import { postgresAdapter } from './adapter.ts';
import { GOOGLE } from './broker.ts';
import type { RealmContext } from './context.ts';
import { BODY_TOO_LARGE_MESSAGE } from './messages.ts';
import { logoutPage, messagePage, type Page } from './pages/index.ts';
import { BROKER_LOGIN_PATH, LOGIN_PATH, OIDC, REALM_PATH, REGISTER_PATH } from './paths.ts';
import { allowRedirectsUnderPrefixes } from './redirect-uris.ts';
import { refreshEnvelope, sendRefreshTokensInEnvelopes } from './refresh-token.ts';
import { serviceAccountClaims, serviceAccountClient } from './service-account.ts';
import type { AccountRecord, RealmSecrets } from './store.ts';
import type { ConfidentialClient } from './token-request.ts';

/** The OIDC provider's configuration: clients, routes, claims, token lifetimes, and what it logs. */

const SSO_SESSION_MAX_SECONDS = 10 * 60 * 60;
const SSO_SESSION_IDLE_SECONDS = 30 * 60;
const INTERACTION_TTL_SECONDS = 30 * 60;
/** The discovery document changes only with the realm's configuration. */
const DISCOVERY_CACHE_CONTROL = 'public, max-age=300';

export const FIRST_PARTY = new Set(['forum-web', 'admin-web', 'forum-cli']);
export const OIDC_SCOPES = ['openid', 'email', 'profile'];
/** The key of a sign-in's interaction result that says it registered the account. */
export const REGISTERED = 'forum_registered';

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

export const idTokenClaims = (account: AccountRecord) => ({
  sub: account.id,
  email: account.email,
  email_verified: account.emailVerified,
  name: account.name,
  ...(account.picture ? { picture: account.picture } : {}), // OIDC: omit claims without a value
  preferred_username: account.email,
  ...(account.handle ? { handle: account.handle } : {}),
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

/** oidc-provider reads at most 56 KB of a body and calls a larger one "failed to parse the request body": it is too large (413). */
const bodyTooLarge = (err: unknown) => (err as { error_detail?: unknown } | undefined)?.error_detail === 'request entity too large';

const toAccount = (record: AccountRecord): Account => ({
  accountId: record.id,
  claims: () => idTokenClaims(record),
});

export function createProvider(
  { publicOrigin, issuer, audience, db, log, accounts, site, google }: RealmContext,
  {
    secrets,
    accessTokenTtl,
    allowedOrigins,
    serviceAccount,
    adminAudience,
  }: {
    secrets: RealmSecrets;
    accessTokenTtl: number;
    allowedOrigins: ReadonlySet<string>;
    /** Keycloak's service account (service-account.ts), or null: none. */
    serviceAccount: ConfidentialClient | null;
    /** The admin API's resource indicator: the `aud` of the service account's tokens. */
    adminAudience: string;
  },
) {
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
    ...(serviceAccount ? [serviceAccountClient(serviceAccount)] : []),
  ];
  const isServiceAccount = (clientId: string | undefined) => serviceAccount !== null && clientId === serviceAccount.clientId;

  const resourceServer: ResourceServer = {
    scope: OIDC_SCOPES.join(' '),
    audience,
    accessTokenFormat: 'jwt',
    accessTokenTTL: accessTokenTtl,
    jwt: { sign: { alg: 'RS256' } },
  };
  /** The admin API as a resource server: only the service account's tokens are for it. */
  const adminResourceServer: ResourceServer = {
    scope: '',
    audience: adminAudience,
    accessTokenFormat: 'jwt',
    accessTokenTTL: accessTokenTtl,
    jwt: { sign: { alg: 'RS256' } },
  };

  /** "Sign out?" with a button: the same form oidc-provider would submit, posted only by the person. */
  function logoutConfirmation(ctx: KoaContextWithOIDC): Page {
    const back = ctx.oidc.params?.post_logout_redirect_uri;
    const secret = ctx.oidc.session?.state?.secret;
    return messagePage({
      title: 'Sign out',
      message: 'Do you want to sign out of Forum?',
      form: { action: ctx.oidc.urlFor('end_session_confirm'), fields: { xsrf: typeof secret === 'string' ? secret : '', logout: 'yes' }, button: 'Sign out' },
      link: { href: typeof back === 'string' ? back : `${publicOrigin}/`, label: 'Stay signed in' },
      site,
    });
  }

  const configuration: Configuration = {
    adapter: postgresAdapter(db),
    jwks: { keys: secrets.signingKeys },
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
      pushed_authorization_request: `${OIDC}/ext/par/request`,
      device_authorization: `${OIDC}/auth/device`,
      code_verification: '/device',
    },
    // the endpoints the realm answers itself (revocation.ts, introspection.ts), where Keycloak has them
    discovery: {
      revocation_endpoint: `${issuer}${OIDC}/revoke`,
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      introspection_endpoint: `${issuer}${OIDC}/token/introspect`,
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    },
    scopes: OIDC_SCOPES,
    claims: {
      // Keycloak's default client scopes: the ID token carries email and profile even for `scope=openid`
      openid: ['sub', 'email', 'email_verified', 'name', 'picture', 'preferred_username', 'handle'],
      email: ['email', 'email_verified'],
      profile: ['name', 'picture', 'preferred_username', 'handle'],
    },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientBasedCORS: (_ctx, origin) => allowedOrigins.has(origin),
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: true }, // listed in discovery; the realm answers it itself (see `userinfo` below)
      clientCredentials: { enabled: serviceAccount !== null },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, client, oneOf) => oneOf ?? (isServiceAccount(client?.clientId) ? adminAudience : audience),
        useGrantedResource: () => true,
        // the service account's tokens are for the admin API, and only its tokens are
        getResourceServerInfo: (_ctx, indicator, client) => {
          const forServiceAccount = isServiceAccount(client?.clientId);
          if (indicator === audience && !forServiceAccount) return resourceServer;
          if (indicator === adminAudience && forServiceAccount) return adminResourceServer;
          throw new errors.InvalidTarget();
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => pageOnContext(ctx, hintsOwnSession(ctx) ? logoutPage(form, site) : logoutConfirmation(ctx)),
        postLogoutSuccessSource: (ctx) => pageOnContext(ctx, messagePage({ title: 'Signed out', message: 'You have been signed out.', site })),
      },
    },
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtl,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtl,
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
      if (token.kind === 'ClientCredentials' && isServiceAccount(token.clientId)) return serviceAccountClaims(token.clientId!);
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
        // the forum's handle (docs/notifications.md#handles): chosen at registration, or written back by the forum
        ...(record.handle ? { handle: record.handle } : {}),
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
    renderError: (ctx, out, err) => {
      if (bodyTooLarge(err)) return pageOnContext(ctx, messagePage({ title: 'We are sorry…', message: BODY_TOO_LARGE_MESSAGE, status: 413, site }));
      const status = ctx.status >= 400 ? ctx.status : 400;
      const message = out.error_description ? `${out.error_description} (${out.error})` : out.error;
      pageOnContext(ctx, messagePage({ title: 'We are sorry…', message, status, site }));
    },
  };

  const provider = new Provider(issuer, configuration);
  // the router hands every request over with the issuer's host and protocol in Host and X-Forwarded-* (request-host.ts):
  // what oidc-provider builds from the request (endpoints, form actions, redirects, Secure cookies) is the issuer's
  provider.proxy = true;
  provider.use(async (ctx: KoaContextWithOIDC, next) => {
    await next();
    // oidc-provider sets ctx.oidc only on its own routes
    const oidc: KoaContextWithOIDC['oidc'] | undefined = ctx.oidc;
    // the same document for every request: clients and caches may keep it a while
    if (oidc?.route === 'discovery' && ctx.status === 200) ctx.set('Cache-Control', DISCOVERY_CACHE_CONTROL);
  });
  allowRedirectsUnderPrefixes(provider, publicOrigin);
  sendRefreshTokensInEnvelopes(provider, refreshEnvelope(secrets.refreshTokenKey, issuer));

  // logging: outcomes and error codes only, never credentials or tokens
  provider.on('server_error', (ctx, err) => log.error({ err, path: ctx.path }, 'identity provider error'));
  // Koa prints unhandled errors to stderr unless someone listens
  (provider as unknown as EventEmitter).on('error', (err: unknown) => log.error({ err }, 'identity provider error'));
  for (const event of ['grant.error', 'authorization.error', 'end_session.error', 'end_session_confirm.error'] as const) {
    provider.on(event as 'grant.error', (ctx: KoaContextWithOIDC, err: errors.OIDCProviderError) => {
      log.info({ event, path: ctx.path, error: err.error, description: err.error_description }, 'identity request refused');
      // the error's JSON answer is in place and not sent yet (a page was rendered by renderError)
      if (bodyTooLarge(err) && typeof ctx.body === 'object') {
        ctx.status = 413;
        ctx.body = { error: 'invalid_request', error_description: BODY_TOO_LARGE_MESSAGE };
      }
    });
  }
  // A sign-in that registered the account says so in its authorization response, as Keycloak reports an
  // application-initiated action's outcome (keycloak-js: onActionUpdate): the app greets it as a
  // registration even when it asked for a sign-in (the login page's Register link). `out` is the
  // response's parameters, still to be sent when this event is emitted.
  provider.on('authorization.success', ((ctx: KoaContextWithOIDC, out: Record<string, unknown>) => {
    if (ctx.oidc.result?.[REGISTERED] === true) Object.assign(out, { kc_action: REGISTER_ACTION, kc_action_status: 'success' });
  }) as (ctx: KoaContextWithOIDC) => void);
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => log.info({ clientId: ctx.oidc.client?.clientId }, 'signed out'));

  return { provider, resourceServer };
}
