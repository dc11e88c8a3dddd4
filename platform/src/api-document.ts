import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import {
  ERROR_STATUS,
  ErrorBody,
  HEADER_CONTENT_RANGE,
  HEADER_EVENT_POSITION,
  HEADER_IDEMPOTENCY_KEY,
  HEADER_IDEMPOTENT_REPLAYED,
  HEADER_MIN_POSITION,
  HEADER_READ_BEHIND,
  HEADER_TOTAL_COUNT,
  IDEMPOTENCY_KEY_PATTERN,
  type ErrorCodeName,
} from '@forum/contracts';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HttpServer } from './http-server.ts';

export type { ErrorCodeName };

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The error codes the route answers beyond those every /api route may (API_ERRORS) and those its
     * context declares (declareErrors); each with its status (ERROR_STATUS). Only the API document
     * reads it: errors are still thrown, never built by a route.
     */
    errors?: readonly ErrorCodeName[];
    /**
     * The route's success answers by status: each one's body and the headers it may carry. Only the
     * API document reads it (and the test forum, which holds every answer to it: startTestForum):
     * a response schema would have Fastify serialise every answer through zod.
     */
    answers?: Readonly<Record<number, Answer>>;
    /**
     * The query string of a route that reads it itself (react-admin's range beside its own page, the
     * two parsed apart): its parameters for the API document alone. A route with one query has its
     * `querystring` schema, which Fastify checks.
     */
    queryParameters?: z.ZodObject;
    /** The headers the route reads besides Authorization (its context's: declareHeaders). */
    requestHeaders?: readonly RequestHeaderName[];
    /** The headers any success answer of the route may carry besides its answers' own (its context's: declareHeaders). */
    answerHeaders?: readonly AnswerHeaderName[];
  }
}

/** A success answer of a route (FastifySchema.answers): its body's schema (null: no body), and the headers it may carry. */
export interface Answer {
  readonly body: z.ZodType | null;
  /** What the answer is, when more than its status says. */
  readonly description?: string;
  /** The body's media type (JSON unless said). */
  readonly mediaType?: string;
  readonly headers?: readonly AnswerHeaderName[];
}

/** The headers an answer of the API may carry, and what each says (docs/api.md). */
const ANSWER_HEADERS = {
  [HEADER_EVENT_POSITION]: 'The position of the last event the command appended (absent when it changed nothing): pass it back as X-Min-Position',
  [HEADER_IDEMPOTENT_REPLAYED]: 'true: the answer replays the first answer of this Idempotency-Key, nothing was done again',
  [HEADER_READ_BEHIND]: 'true: X-Min-Position was not reached within the wait, the answer may not show that write yet',
  [HEADER_TOTAL_COUNT]: 'The whole list’s count (the body holds its first rows)',
  [HEADER_CONTENT_RANGE]: 'react-admin’s range: `<resource> <first>-<last>/<total>`, or `<resource> */<total>` when empty',
} as const;
export type AnswerHeaderName = keyof typeof ANSWER_HEADERS;

/** The headers a request of the API may send besides Authorization, and what each says (docs/api.md). */
const REQUEST_HEADERS = {
  [HEADER_IDEMPOTENCY_KEY]: z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN)
    .optional()
    .describe('1 to 255 visible ASCII characters: a retry with the same key (and body) answers the first answer and does nothing again'),
  [HEADER_MIN_POSITION]: z.string().optional().describe('The X-Event-Position a command answered: the read waits (briefly) until the read side has applied it'),
} as const;
export type RequestHeaderName = keyof typeof REQUEST_HEADERS;

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

/**
 * Every route registered in `context` after this call reads the `request` headers and any of its
 * success answers may carry the `answer` headers (a context's hook that reads X-Min-Position and
 * may answer X-Read-Behind); `when` picks the routes it concerns (all by default).
 */
export function declareHeaders(
  context: Pick<FastifyInstance, 'addHook'>,
  headers: { readonly request?: readonly RequestHeaderName[]; readonly answer?: readonly AnswerHeaderName[] },
  when: (route: RouteOptions) => boolean = () => true,
): void {
  context.addHook('onRoute', (route) => {
    if (!when(route)) return;
    route.schema = {
      ...route.schema,
      requestHeaders: [...(route.schema?.requestHeaders ?? []), ...(headers.request ?? [])],
      answerHeaders: [...(route.schema?.answerHeaders ?? []), ...(headers.answer ?? [])],
    };
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

/** The success answers as the zod transform reads them: a body's schema under its media type (a body of none is added after it, see withAnswerHeaders). */
function successResponses(answers: FastifySchema['answers']) {
  return Object.fromEntries(
    Object.entries(answers ?? {}).flatMap(([status, answer]) =>
      answer.body === null
        ? []
        : [[status, { description: answer.description ?? 'Success', content: { [answer.mediaType ?? 'application/json']: { schema: answer.body } } }]],
    ),
  );
}

/** The transformed responses with the answers of no body and each success answer's headers, as @fastify/swagger reads them. */
function withAnswerHeaders(response: Record<string, object>, answers: FastifySchema['answers'], common: readonly AnswerHeaderName[]) {
  const all = { ...response };
  for (const [status, answer] of Object.entries(answers ?? {})) {
    const names = [...new Set([...(answer.headers ?? []), ...common])];
    const headers = Object.fromEntries(names.map((name) => [name, { type: 'string', description: ANSWER_HEADERS[name] }]));
    const described = answer.body === null ? { type: 'null', description: answer.description ?? 'Success, no body' } : all[status];
    all[status] = { ...described, ...(names.length > 0 && { headers }) };
  }
  return all;
}

const zodToJson = createJsonSchemaTransform({ skipList: [] });

/**
 * The route schemas as OpenAPI: the zod schemas of contracts through fastify-type-provider-zod's
 * transform (JSON Schema 2020-12 for OpenAPI 3.1), with each route's error answers added, grouped
 * by the path's first part (/api/posts/… under posts, /api/admin/… under admin).
 */
const transform: SwaggerTransform = (document) => {
  if (!documented(document.url)) return { schema: { hide: true }, url: document.url };
  const { errors, answers, queryParameters, requestHeaders = [], answerHeaders = [], ...schema } = document.schema ?? {};
  const response = { ...successResponses(answers), ...errorResponses(errorsOf({ errors })), ...(schema.response as object | undefined) };
  const tags = schema.tags ?? [document.url.split('/')[2] ?? 'api'];
  const headers = requestHeaders.length > 0 ? z.object(Object.fromEntries(requestHeaders.map((name) => [name, REQUEST_HEADERS[name]]))) : undefined;
  const transformed = zodToJson({
    ...document,
    schema: { ...schema, tags, response, ...(queryParameters && { querystring: queryParameters }), ...(headers && { headers }) },
  });
  const done = transformed.schema as { response?: Record<string, object> } | undefined;
  return { ...transformed, schema: { ...done, response: withAnswerHeaders(done?.response ?? {}, answers, answerHeaders) } };
};

/**
 * What is wrong with a success answer (2xx) of a route by what its schema declares (`answers`,
 * `answerHeaders`), or undefined when nothing is: a status it does not declare, a body that does not
 * parse with its schema or has fields the schema does not name (the document says
 * `additionalProperties: false`), a header of ANSWER_HEADERS it does not declare. The test forum
 * holds every answer of every API test to it (startTestForum), so the suite holds the document.
 */
export function answerMismatch(schema: FastifySchema | undefined, status: number, payload: string, carries: (header: string) => boolean): string | undefined {
  const answer = schema?.answers?.[status];
  if (!schema?.answers) return 'declares no success answer (schema.answers)';
  if (!answer) return `answered ${status}, which it does not declare`;
  const declared = new Set<string>([...(answer.headers ?? []), ...(schema.answerHeaders ?? [])]);
  const undeclared = Object.keys(ANSWER_HEADERS).filter((name) => carries(name) && !declared.has(name));
  if (undeclared.length > 0) return `${status} carries ${undeclared.join(', ')}, which it does not declare`;
  if (answer.body === null) return payload === '' ? undefined : `${status} has a body, yet declares none`;
  if ((answer.mediaType ?? 'application/json') !== 'application/json') return undefined;
  let sent: unknown;
  try {
    sent = JSON.parse(payload);
  } catch {
    return `${status} has a body that is not JSON`;
  }
  const parsed = answer.body.safeParse(sent);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `${status} does not parse with its schema: ${issue.path.join('.') || '(body)'}: ${issue.message}`;
  }
  const extra = extraField(sent, parsed.data, '');
  return extra === undefined ? undefined : `${status} has ${extra}, which its schema does not name`;
}

/** The first field of `sent` that parsing dropped (a field the schema does not name), by its path. */
function extraField(sent: unknown, parsed: unknown, path: string): string | undefined {
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    for (const [index, item] of sent.entries()) {
      const extra = extraField(item, parsed[index], `${path}[${index}]`);
      if (extra !== undefined) return extra;
    }
    return undefined;
  }
  if (!isRecord(sent) || !isRecord(parsed)) return undefined;
  for (const key of Object.keys(sent)) {
    const at = path ? `${path}.${key}` : key;
    if (!(key in parsed)) return at;
    const extra = extraField(sent[key], parsed[key], at);
    if (extra !== undefined) return extra;
  }
  return undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

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
