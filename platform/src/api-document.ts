import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import { ERROR_STATUS, ErrorBody, type ErrorCode } from '@forum/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HttpServer } from './http-server.ts';

/** An error code of the HTTP contract (contracts' ErrorCode), by name. */
export type ErrorCodeName = keyof typeof ErrorCode;

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The error codes the route answers beyond those every /api route may (API_ERRORS) and those its
     * context declares (declareErrors); each with its status (ERROR_STATUS). Only the API document
     * reads it: errors are still thrown, never built by a route.
     */
    errors?: readonly ErrorCodeName[];
  }
}

/**
 * What any route of /api may answer, whatever it does: a query string not in UTF-8, a repeated or
 * unknown parameter (400); a body too large (413) or not JSON in UTF-8 (415); the database out of
 * reach (503); a fault of the server's (500).
 */
export const API_ERRORS: readonly ErrorCodeName[] = ['VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INTERNAL', 'UNAVAILABLE'];

/** The error codes `route` declares: API_ERRORS, then its context's and its own, once each. */
export const errorsOf = (schema: { errors?: readonly ErrorCodeName[] } | undefined): ErrorCodeName[] => [
  ...new Set([...API_ERRORS, ...(schema?.errors ?? [])]),
];

/**
 * Every route registered in `context` after this call (and in contexts inside it) answers `codes`
 * too (or what `codes` says of the route, e.g. of its guard): a context's hooks say it once for all
 * its routes (a token check's 401, a read's timeout).
 */
export function declareErrors(
  context: Pick<FastifyInstance, 'addHook'>,
  codes: readonly ErrorCodeName[] | ((route: RouteOptions) => readonly ErrorCodeName[]),
): void {
  context.addHook('onRoute', (route) => {
    const more = typeof codes === 'function' ? codes(route) : codes;
    if (more.length > 0) route.schema = { ...route.schema, errors: [...(route.schema?.errors ?? []), ...more] };
  });
}

/** The paths the API document describes: /api's calls, not the document and its pages, nor a catch-all. */
const documented = (url: string) => url.startsWith('/api/') && !url.includes('*') && !url.startsWith('/api/docs') && url !== API_DOCUMENT_PATH;

/** Where the document is served (and /api/docs its browsable pages). */
export const API_DOCUMENT_PATH = '/api/openapi.json';

/** The error answers of `codes`, one per status: ErrorBody with `error.code` one of that status's codes. */
function errorResponses(codes: readonly ErrorCodeName[]) {
  const byStatus = new Map<number, ErrorCodeName[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, named]) => {
      const [first, ...rest] = named as [ErrorCodeName, ...ErrorCodeName[]];
      const schema = z.object({ error: ErrorBody.shape.error.extend({ code: z.enum([first, ...rest]) }) });
      return [status, { description: named.join(', '), content: { 'application/json': { schema } } }];
    }),
  );
}

const zodToJson = createJsonSchemaTransform({ skipList: [] });

/**
 * The route schemas as OpenAPI: the zod schemas of contracts through fastify-type-provider-zod's
 * transform (JSON Schema 2020-12 for OpenAPI 3.1), with each route's error answers added, grouped
 * by the path's first part (/api/posts/… under posts, /api/admin/… under admin).
 */
const transform: SwaggerTransform = (document) => {
  if (!documented(document.url)) return { schema: { hide: true }, url: document.url };
  const { errors, ...schema } = document.schema ?? {};
  const response = { ...errorResponses(errorsOf({ errors })), ...(schema.response as object | undefined) };
  const tags = schema.tags ?? [document.url.split('/')[2] ?? 'api'];
  return zodToJson({ ...document, schema: { ...schema, tags, response } });
};

/** The version the API document gives: the product's (package.json). */
const API_VERSION = '0.1.0';

/**
 * Registers the API document on `server` (before any route: it lists the routes as they are
 * added). `server.swagger()` then gives the OpenAPI 3.1 document of its /api routes: the whole API
 * on the embedded gateway, a service's part on a service of its own (see mergeApiDocuments).
 */
export function registerApiDocument(server: HttpServer) {
  return server.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Forum API',
        version: API_VERSION,
        description: 'The forum’s HTTP API. Conventions (tokens, Idempotency-Key, X-Event-Position and X-Min-Position, the error body) are in docs/api.md.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{}, { bearer: [] }],
    },
    transform,
  });
}

/** What mergeApiDocuments reads of a document. */
export interface ApiDocument {
  readonly paths?: Readonly<Record<string, object>>;
  readonly components?: { readonly schemas?: Readonly<Record<string, unknown>> };
}

/**
 * The services' parts as one document (the replicated layout's gateway, which has no route of its
 * own): the first one's header, every part's operations (a path may have a read of one service
 * and a write of the other) and named schemas.
 */
export function mergeApiDocuments<D extends ApiDocument>([first, ...rest]: readonly [D, ...D[]]): D {
  const paths: Record<string, object> = {};
  const schemas: Record<string, unknown> = {};
  for (const part of [first, ...rest]) {
    for (const [path, operations] of Object.entries(part.paths ?? {})) paths[path] = { ...paths[path], ...operations };
    Object.assign(schemas, part.components?.schemas);
  }
  return { ...first, paths, components: { ...first.components, schemas } };
}
