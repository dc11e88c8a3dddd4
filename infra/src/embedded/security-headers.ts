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
import fastifyCors from '@fastify/cors';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import { fastify, type FastifyInstance } from 'fastify';

/**
 * The browser security headers of every answer of the gateway, in one place (docs/security/headers.md):
 * @fastify/helmet writes them, @fastify/cors answers the configured origins. The gateway calls
 * `every` before anything else writes an answer, then the one policy its route needs; a handler
 * that sets its own CSP (the realm, on every answer it can be framed or run a script in) replaces
 * the gateway's, which only ever stands in for a missing one.
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
  /** `/api`: registers @fastify/cors for the configured origins (it answers a preflight itself); nothing without any. */
  cors(api: FastifyInstance): Promise<void>;
  /**
   * An app's index.html: the apps' CSP with a fresh nonce for the styles the page inserts; returns the
   * nonce. `styleHashes`: a server-rendered page's style attributes ('sha256-…'), allowed by 'unsafe-hashes'.
   */
  appDocument(req: IncomingMessage, res: ServerResponse, styleHashes?: readonly string[]): string;
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
/** Where an app document's nonce goes in its worked-out CSP (see workedOut). */
const NONCE = 'NONCE-OF-THE-ANSWER';

/** The headers of every answer: JSON, assets, health answers: nothing in them may run, load or be framed (helmet's other defaults too). */
export const STRICT_HELMET = (https: boolean): FastifyHelmetOptions => ({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: [NONE], baseUri: [NONE], formAction: [NONE], frameAncestors: [NONE] } },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
  xFrameOptions: { action: 'deny' },
});

type Headers = readonly (readonly [name: string, value: string])[];

/** The headers of every answer (STRICT_HELMET's), as names and values: what a proxy in front of the services sets on the answers it forwards (haproxy-config.ts). */
export async function everyAnswerHeaders(https: boolean): Promise<Headers> {
  return (await workedOut({ every: STRICT_HELMET(https) })).every;
}

/**
 * The headers @fastify/helmet writes for each policy, worked out once on a Fastify server of its own
 * (one request per policy, through inject): the gateway then sets them on each answer in one loop.
 * @fastify/helmet registered on the gateway would make helmet's middleware anew and run it on every
 * answer, which costs more (docs/security/headers.md, "Cost").
 */
async function workedOut<P extends string>(policies: Record<P, FastifyHelmetOptions>): Promise<Record<P, Headers>> {
  const app = fastify();
  await app.register(fastifyHelmet, { global: false });
  app.get('/', () => '');
  for (const [name, options] of Object.entries<FastifyHelmetOptions>(policies)) app.get(`/${name}`, { helmet: options }, () => '');
  const plain = new Set(Object.keys((await app.inject('/')).headers));
  const headers = {} as Record<P, Headers>;
  for (const name of Object.keys(policies) as P[]) {
    const answer = await app.inject(`/${name}`);
    headers[name] = Object.entries(answer.headers).flatMap(([header, value]) => (plain.has(header) ? [] : [[header, String(value)] as const]));
  }
  await app.close();
  return headers;
}

/** Of `headers`, those named. */
const only = (headers: Headers, ...names: string[]): Headers => headers.filter(([name]) => names.includes(name));

const setAll = (res: ServerResponse, headers: Headers) => {
  for (const [name, value] of headers) res.setHeader(name, value);
};

export async function createSecurityHeaders(options: SecurityHeaderOptions): Promise<SecurityHeaders> {
  const issuer = options.externalIssuer ? [new URL(options.externalIssuer).origin] : [];
  const policies = await workedOut({
    every: STRICT_HELMET(options.https),
    appDocument: {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: [NONE],
          // the build's modules and chunks; index.html has no inline script (Vite puts the preload polyfill in a chunk)
          scriptSrc: [SELF],
          // the build's CSS files, and the <style> elements emotion (MUI) inserts with the page's nonce
          styleSrc: [SELF, `'nonce-${NONCE}'`],
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
      },
    },
    checkSsoPage: {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: [NONE], scriptSrc: [SELF], baseUri: [NONE], formAction: [NONE], frameAncestors: [SELF] },
      },
      xFrameOptions: { action: 'sameorigin' },
    },
    // Swagger UI: scripts and styles are its files (no inline script); the images it inlines are data: URLs
    apiDocsPage: {
      contentSecurityPolicy: {
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
      },
    },
  });
  const every = policies.every;
  // the route policies replace only what they are about: the rest is every answer's
  const appCsp = only(policies.appDocument, 'content-security-policy')[0]?.[1];
  if (!appCsp?.includes(NONCE)) throw new Error('the apps’ CSP has no place for its nonce');
  const checkSsoPage = only(policies.checkSsoPage, 'content-security-policy', 'x-frame-options');
  const apiDocsPage = only(policies.apiDocsPage, 'content-security-policy');

  return {
    every: (_req, res) => setAll(res, every),
    async cors(api) {
      if (options.corsOrigins.length === 0) return;
      await api.register(fastifyCors, {
        origin: [...options.corsOrigins],
        // lists as the API has always sent them: comma-separated, no spaces
        methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].join(','),
        allowedHeaders: CORS_REQUEST_HEADERS.join(','),
        exposedHeaders: CORS_RESPONSE_HEADERS.join(','),
        // bearer tokens, not cookies: no credentials
        credentials: false,
        maxAge: 600,
        // an OPTIONS to /api is a preflight, answered 204 whatever it sends (a missing Origin is no reason for a 400)
        strictPreflight: false,
      });
    },
    appDocument(_req, res, styleHashes = []) {
      const nonce = randomBytes(16).toString('base64');
      const styles = styleHashes.length === 0 ? '' : ` 'unsafe-hashes' ${styleHashes.join(' ')}`;
      res.setHeader('content-security-policy', appCsp.replace(`'nonce-${NONCE}'`, `'nonce-${nonce}'${styles}`));
      return nonce;
    },
    checkSsoPage: (_req, res) => setAll(res, checkSsoPage),
    apiDocsPage: (_req, res) => setAll(res, apiDocsPage),
  };
}
