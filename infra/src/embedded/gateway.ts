import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { ErrorCode, ROBOTS_PATH } from '@forum/contracts';
import {
  API_DOCUMENT_PATH,
  apiInput,
  createHttpServer,
  errorBody,
  healthPlugin,
  METRICS_PATH,
  registerApiDocument,
  type HttpServer,
  type Logger,
  type Metrics,
  type ReadinessCheck,
  type RequestHook,
} from '@forum/platform';
import fastifyStatic from '@fastify/static';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SecurityHeaders } from './security-headers.ts';
import { compressAnswers } from './compression.ts';
import { robotsTxt } from './robots.ts';
import { publicPages } from './public-pages.ts';
import { singlePageApp } from './spa.ts';

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface GatewayRoutes {
  /** The services' APIs, registered under /api in one context (its hooks: the API's input, CORS). */
  readonly api: readonly FastifyPluginAsync[];
  /**
   * The APIs are proxies to services elsewhere (the replicated layout): they get each request's
   * bytes as they came and answer every path themselves; the services check the input.
   */
  readonly proxied?: boolean;
  /** The embedded realm; absent when an external issuer is configured. */
  readonly identity?: NodeHandler;
  /** The embedded realm's Keycloak-compatible admin API (`/admin/realms/forum/users`). */
  readonly identityAdmin?: NodeHandler;
  readonly forumWebDir: string;
  readonly adminWebDir: string;
  readonly checks: Record<string, ReadinessCheck>;
  readonly logger: Logger;
  /** The browser security headers every answer carries (createSecurityHeaders). */
  readonly headers: SecurityHeaders;
  /** The API document when the APIs are proxied (the services' parts merged); else the document of the routes registered here. */
  readonly apiDocument?: () => Promise<unknown>;
  /** The process's metrics: every answer is timed into them, and the readiness checks run at each scrape; they are served on METRICS_PORT, never here. */
  readonly metrics?: Metrics | undefined;
  /** The sitemap and the feeds at the top level (the query side's discoveryRoutes, or a proxy to its replicas). */
  readonly discovery: FastifyPluginAsync;
  /** Where browsers reach the forum (PUBLIC_URL): robots.txt names the sitemap by its absolute address. */
  readonly publicUrl: string;
}

/**
 * One origin for the whole product, one Fastify server: `/` forum-web, `/admin` admin-web, `/api/*`
 * the services' APIs, `/realms/forum/*` and `/admin/realms/forum/*` the embedded identity realm,
 * `/healthz` and `/readyz`; for search engines and feed readers, `/robots.txt`, the sitemap and the
 * feeds (docs/seo.md). Every answer carries the security headers, set before any route runs.
 */
export async function createGateway(routes: GatewayRoutes): Promise<HttpServer> {
  const { headers } = routes;
  const server = createHttpServer({ logger: routes.logger, apiInput: false, ...(routes.metrics && { metrics: routes.metrics }) });
  server.addHook('onRequest', (request, reply, done) => {
    headers.every(request.raw, reply.raw);
    done();
  });
  // before any route: the API document lists the routes of /api as they are added
  await registerApiDocument(server);
  const apiDocument = routes.apiDocument ?? (() => Promise.resolve(server.swagger()));
  await server.register(healthPlugin(routes.checks, { metrics: routes.metrics }));
  // the metrics are on METRICS_PORT's listener only: the public port says there is no such page (not the forum's page for an unknown path)
  server.all(METRICS_PATH, noSuchEndpoint);
  if (routes.identity) mountRaw(server, '/realms/forum', routes.identity);
  if (routes.identityAdmin) mountRaw(server, '/admin/realms/forum', routes.identityAdmin);
  // the API's JSON and the apps' pages, compressed for browsers that accept it (compression.ts)
  await compressAnswers(server);

  await server.register(
    async (api) => {
      if (!routes.proxied) apiInput(api);
      // @fastify/cors, when CORS_ORIGINS names origins: it answers a preflight in its hook, before any route
      await headers.cors(api);
      for (const plugin of routes.api) await api.register(plugin);
      // the API document (OpenAPI 3.1) and its pages, under a policy of their own (security-headers.ts)
      api.get(API_DOCUMENT_PATH.slice('/api'.length), () => apiDocument());
      await api.register(apiDocsPages(apiDocument, headers));
      // an unknown /api path is the API's 404 (through this context's hooks), never an app's page
      api.setNotFoundHandler(noSuchEndpoint);
      if (routes.proxied) return;
      api.all('/', (_request, reply) => reply.callNotFound());
      api.all('/*', (_request, reply) => reply.callNotFound());
    },
    { prefix: '/api' },
  );

  await server.register(routes.discovery);
  const robots = robotsTxt(routes.publicUrl);
  server.get(ROBOTS_PATH, (_request, reply) => reply.header('Cache-Control', 'public, max-age=3600').type('text/plain; charset=utf-8').send(robots));

  // the apps' files and their compressed copies are sent by each app's routes (singlePageApp)
  await server.register(fastifyStatic, { serve: false, preCompressed: true, index: false, redirect: false });
  await server.register(singlePageApp({ dir: routes.adminWebDir, name: 'admin-web', headers }), { prefix: '/admin' });
  // forum-web's public pages as HTML: its server build beside its dist/, reading through this server's own /api
  const pages = publicPages({
    serverEntry: path.join(path.dirname(routes.forumWebDir), 'dist-server', 'entry-server.js'),
    publicUrl: routes.publicUrl,
    server,
    logger: routes.logger,
  });
  await server.register(singlePageApp({ dir: routes.forumWebDir, name: 'forum-web', headers, pages }));
  return server;
}

/**
 * /api/docs: Swagger UI over the API document. Its own copy of the document (/api/docs/json, which
 * its page reads, and /api/docs/yaml) is `apiDocument`'s, read before the answer is written.
 */
function apiDocsPages(apiDocument: () => Promise<unknown>, headers: SecurityHeaders): FastifyPluginAsync {
  return async (api) => {
    const documents = new WeakMap<FastifyRequest, unknown>();
    await api.register(swaggerUi, {
      routePrefix: '/docs',
      // its page's links are absolute without a trailing slash: it does not see the /api of this context
      indexPrefix: '/api',
      // no top bar: the page is for this one document, and the bar's Swagger logo is an SVG with an inline <style>, which the page's CSP refuses
      uiConfig: { deepLinking: true, layout: 'BaseLayout' },
      uiHooks: {
        onRequest: (request, reply, done) => {
          headers.apiDocsPage(request.raw, reply.raw);
          done();
        },
        preHandler: (request, _reply, done) => {
          if (!/\/(json|yaml)$/.test(request.routeOptions.url ?? '')) return done();
          apiDocument().then(
            (document) => {
              documents.set(request, document);
              done();
            },
            (error: Error) => done(error),
          );
        },
      },
      transformSpecificationClone: false,
      transformSpecification: (local, request) => (documents.get(request) ?? local) as typeof local,
    });
  };
}

const noSuchEndpoint = (_request: FastifyRequest, reply: FastifyReply) => reply.code(404).send(errorBody(ErrorCode.NOT_FOUND, 'No such endpoint'));

/**
 * A plain Node handler at `prefix` and below, every method: it gets the request before Fastify reads
 * a body (the realm reads its own forms) and answers it itself; it takes its prefix off the URL.
 */
function mountRaw(server: HttpServer, prefix: string, handler: NodeHandler) {
  const handOver: RequestHook = (request, reply, done) => {
    reply.hijack();
    handler(request.raw, reply.raw);
    done();
  };
  const never = () => {};
  server.all(prefix, { onRequest: handOver }, never);
  server.all(`${prefix}/*`, { onRequest: handOver }, never);
}
