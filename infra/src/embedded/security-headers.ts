import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  HEADER_CORRELATION_ID,
  HEADER_EVENT_POSITION,
  HEADER_IDEMPOTENCY_KEY,
  HEADER_MIN_POSITION,
  HEADER_READ_BEHIND,
  HEADER_REQUEST_ID,
} from '@forum/contracts';
import cors from 'cors';
import helmet from 'helmet';

/**
 * The browser security headers of every answer of the gateway, in one place (docs/security/headers.md):
 * helmet sets them, cors answers the configured origins. The gateway calls `every` before anything
 * else writes an answer, then the one policy its route needs; a handler that sets its own CSP (the
 * realm, on every answer it can be framed or run a script in) replaces the gateway's, which only
 * ever stands in for a missing one.
 */
export interface SecurityHeaderOptions {
  /** Browsers reach the forum over https (PUBLIC_URL is https): answers carry Strict-Transport-Security. */
  readonly https: boolean;
  /** An external OIDC issuer (OIDC_ISSUER): the apps call its token endpoint and frame its check-sso pages. */
  readonly externalIssuer?: string;
  /** Origins whose pages may call /api from another origin (CORS_ORIGINS); none by default. */
  readonly corsOrigins: readonly string[];
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface SecurityHeaders {
  /** Every answer: nosniff, referrer policy, COOP, no framing, HSTS over https, and the strictest CSP (nothing runs). */
  readonly every: Handler;
  /** `/api`: CORS for the configured origins; true when it has answered the request itself (a preflight). */
  cors(req: IncomingMessage, res: ServerResponse): boolean;
  /** An app's index.html: the apps' CSP with a fresh nonce for the styles the page inserts; returns the nonce. */
  appDocument(req: IncomingMessage, res: ServerResponse): string;
  /** keycloak-js's check-sso page of an app: an app page of the same origin frames it, its script is a file. */
  readonly checkSsoPage: Handler;
  /** /api/docs, the API document's pages (Swagger UI): its script, styles and images are files of its own; it reads the document from /api. */
  readonly apiDocsPage: Handler;
}

const SELF = "'self'";
const NONE = "'none'";
/** One year: what browsers' preload lists ask for; no includeSubDomains, the forum does not speak for its domain's other hosts. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
/** What a page of another origin may send and read on /api (the API's own headers; Last-Event-ID: a change stream's reconnect). */
const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', HEADER_IDEMPOTENCY_KEY, HEADER_MIN_POSITION, HEADER_CORRELATION_ID, 'Last-Event-ID'];
const CORS_RESPONSE_HEADERS = [HEADER_EVENT_POSITION, HEADER_READ_BEHIND, HEADER_REQUEST_ID, 'X-Total-Count', 'Content-Range', 'Retry-After'];

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
const noop = () => {};

/**
 * A policy that is the same for every answer, as helmet writes it, read once: each answer then gets
 * the headers in one loop, a third of what calling helmet per answer costs (~3 against ~7-9 µs
 * measured), which matters on /api's answers from memory.
 */
function fixed(middleware: Middleware): Handler {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string | number) => void headers.push([name, String(value)]),
    removeHeader: noop,
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, noop);
  return (_req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
}

export function createSecurityHeaders(options: SecurityHeaderOptions): SecurityHeaders {
  const issuer = options.externalIssuer ? [new URL(options.externalIssuer).origin] : [];
  const nonces = new WeakMap<ServerResponse, string>();

  const every = helmet({
    // JSON, assets, health answers: nothing in them may run, load or be framed
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: [NONE], baseUri: [NONE], formAction: [NONE], frameAncestors: [NONE] } },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: options.https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
    xFrameOptions: { action: 'deny' },
  });

  const appDocument = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: [NONE],
      // the build's modules and chunks; index.html has no inline script (Vite puts the preload polyfill in a chunk)
      scriptSrc: [SELF],
      // the build's CSS files, and the <style> elements emotion (MUI) inserts with the page's nonce
      styleSrc: [SELF, (_req, res) => `'nonce-${nonces.get(res)}'`],
      // members' photos are https URLs anywhere; the build inlines small images as data: URLs
      imgSrc: [SELF, 'data:', 'https:'],
      fontSrc: [SELF],
      manifestSrc: [SELF],
      // /api and the realm's token endpoint (keycloak-js), on the issuer's origin when it is elsewhere
      connectSrc: [SELF, ...issuer],
      // keycloak-js's hidden frames: the realm's third-party-cookie probe and its check-sso, then the app's check-sso page
      frameSrc: [SELF, ...issuer],
      objectSrc: [NONE],
      baseUri: [NONE],
      // keycloak-js leaves for the realm by navigating, not by a form; the apps' forms are handled by script
      formAction: [SELF],
      frameAncestors: [NONE],
    },
  });

  const checkSsoCsp = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: { defaultSrc: [NONE], scriptSrc: [SELF], baseUri: [NONE], formAction: [NONE], frameAncestors: [SELF] },
  });
  const sameOriginFrames = helmet.xFrameOptions({ action: 'sameorigin' });

  // Swagger UI: scripts and styles are its files (no inline script); the images it inlines are data: URLs
  const apiDocsCsp = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: [NONE],
      scriptSrc: [SELF],
      styleSrc: [SELF],
      imgSrc: [SELF, 'data:'],
      connectSrc: [SELF],
      objectSrc: [NONE],
      baseUri: [NONE],
      formAction: [NONE],
      frameAncestors: [NONE],
    },
  });

  const corsMiddleware =
    options.corsOrigins.length > 0
      ? cors({
          origin: [...options.corsOrigins],
          methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
          allowedHeaders: CORS_REQUEST_HEADERS,
          exposedHeaders: CORS_RESPONSE_HEADERS,
          // bearer tokens, not cookies: no credentials
          credentials: false,
          maxAge: 600,
        })
      : null;

  return {
    every: fixed(every),
    cors(req, res) {
      if (!corsMiddleware) return false;
      let passedOn = false;
      // synchronous with static options: next() is called, or the preflight has been answered
      corsMiddleware(req, res, () => {
        passedOn = true;
      });
      return !passedOn;
    },
    appDocument(req, res) {
      const nonce = randomBytes(16).toString('base64');
      nonces.set(res, nonce);
      appDocument(req, res, noop);
      return nonce;
    },
    checkSsoPage: fixed((req, res, next) => checkSsoCsp(req, res, () => sameOriginFrames(req, res, next))),
    apiDocsPage: fixed(apiDocsCsp),
  };
}
