import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@forum/platform';
import { redirect, sendJson, sendPage } from './http.ts';
import { MALFORMED_HOST_MESSAGE } from './messages.ts';
import type { Page } from './pages/index.ts';
import {
  ACTION_TOKEN_PATH,
  BROKER_ENDPOINT_PATH,
  BROKER_LOGIN_PATH,
  LOGIN_PATH,
  MAILBOX_PATH,
  OIDC,
  REALM_PATH,
  REGISTER_PATH,
  registerUrl,
  RESET_PATH,
  UID,
  VERIFY_EMAIL_PATH,
} from './paths.ts';
import { asIssuerRequest, hasValidHost, originForm } from './request-host.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
type QueryHandler = (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => Promise<void> | void;
type PageHandler = (req: IncomingMessage, res: ServerResponse, uid: string) => Promise<void> | void;

/** The realm's endpoints, each answered by its flow; the rest is oidc-provider's. */
export interface RealmRoutes {
  cors: (req: IncomingMessage, res: ServerResponse, path: string) => boolean;
  userinfo: Handler;
  /** RFC 7009 and RFC 7662, answered by the realm itself (its refresh tokens travel in envelopes, its access tokens are not stored). */
  revocation: Handler;
  introspection: Handler;
  cookiesProbe: Page;
  registrations: QueryHandler;
  login: PageHandler;
  register: PageHandler;
  expiredPage: (res: ServerResponse) => void;
  forgotPassword: QueryHandler;
  resetPassword: QueryHandler;
  verifyEmail: QueryHandler;
  brokerLogin: QueryHandler;
  brokerEndpoint: QueryHandler;
  mailbox: Handler;
  /** The page of a request whose Host is not a host (400). */
  malformedHostPage: Page;
  /** Content-Security-Policy of oidc-provider's own answers */
  providerPolicy: string;
  /** oidc-provider's request handler */
  callback: Handler;
}

/** The endpoints that answer JSON (a client's, not a browser's): a malformed Host is refused there in OAuth's shape, elsewhere with a page. */
const JSON_PATHS = new Set([`${OIDC}/token`, `${OIDC}/certs`, `${OIDC}/userinfo`, `${OIDC}/revoke`, `${OIDC}/token/introspect`]);

/** The realm's plain Node request handler: a failure answers 500 without details and is logged. */
export function createRealmRouter(routes: RealmRoutes, issuer: string, log: Logger) {
  const {
    cors,
    userinfo,
    revocation,
    introspection,
    cookiesProbe,
    registrations,
    login,
    register,
    expiredPage,
    forgotPassword,
    resetPassword,
    verifyEmail,
    brokerLogin,
    brokerEndpoint,
    mailbox,
    malformedHostPage,
    providerPolicy,
    callback,
  } = routes;
  const issuerUrl = new URL(issuer);
  async function route(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) {
    req.url = originForm(req.url ?? '/');
    if (req.originalUrl !== undefined) req.originalUrl = originForm(req.originalUrl);
    // mounted under a prefix that is already gone (an Express app's use) or handed the whole URL (the gateway's raw mount): strip it here
    if (req.originalUrl === undefined && (req.url === REALM_PATH || /^\/realms\/forum[/?]/.test(req.url))) {
      const rest = req.url.slice(REALM_PATH.length);
      req.originalUrl = req.url;
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
    }
    const url = new URL(req.url, 'http://realm.invalid');
    const path = url.pathname;

    if (!hasValidHost(req)) {
      if (JSON_PATHS.has(path) || path.startsWith('/.well-known/')) sendJson(res, 400, { error: 'invalid_request', error_description: MALFORMED_HOST_MESSAGE });
      else sendPage(res, malformedHostPage);
      return;
    }
    if (cors(req, res, path)) return;

    if (path === `${OIDC}/userinfo`) return userinfo(req, res);
    if (path === `${OIDC}/revoke`) return revocation(req, res);
    if (path === `${OIDC}/token/introspect`) return introspection(req, res);
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
    asIssuerRequest(req, issuerUrl);
    await callback(req, res);
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((err: unknown) => {
      log.error({ err }, 'identity request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'server_error', error_description: 'Something went wrong' });
      else res.end();
    });
  };
  return handler;
}
