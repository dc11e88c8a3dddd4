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
export function declareErrors(context: Pick<FastifyInstance, 'addHook'>, codes: readonly ErrorCodeName[] | ((route: RouteOptions) => readonly ErrorCodeName[])): void {
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
 * transform (JSON Schema 2020-12 for OpenAPI 3.1), with each route's error answers added.
 */
const transform: SwaggerTransform = (document) => {
  if (!documented(document.url)) return { schema: { hide: true }, url: document.url };
  const { errors, ...schema } = document.schema ?? {};
  const response = { ...errorResponses(errorsOf({ errors })), ...(schema.response as object | undefined) };
  return zodToJson({ ...document, schema: { ...schema, response } });
};

/**
 * Registers the API document on `server` (before any route: it lists the routes as they are
 * added). `server.swagger()` then gives the OpenAPI 3.1 document of every /api route.
 */
export async function registerApiDocument(server: HttpServer, info: { readonly version: string }): Promise<void> {
  await server.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Forum API',
        version: info.version,
        description:
          'The forum’s HTTP API. Conventions (tokens, Idempotency-Key, X-Event-Position and X-Min-Position, the error body) are in docs/api.md.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{}, { bearer: [] }],
    },
    transform,
  });
}
