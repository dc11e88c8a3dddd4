import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable, type Transform } from 'node:stream';
import zlib, { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { parse } from 'node:querystring';
import { ErrorCode, fieldErrorsOf } from '@forum/contracts';
import {
  fastify,
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchemaCompiler,
  type FastifyTypeProvider,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { UnsupportedMediaTypeError, ValidationError } from './errors.ts';
import { isDiskFull } from './database-unavailable.ts';
import {
  answerClientError,
  errorAnswer,
  errorBody,
  hasBody,
  isFormInUtf8,
  isJsonInUtf8,
  JSON_BODY_LIMIT,
  notJson,
  notUtf8,
  refuseQueryNotInUtf8,
} from './http.ts';
import { LazyChildLogger, requestIdFor, trackAnswer, type Logger } from './logger.ts';
import { observeAnswer } from './metrics/answers.ts';
import type { Metrics } from './metrics/metrics.ts';
import { inRequestSpan, traceRequest } from './tracing.ts';

export interface HttpServerOptions {
  /** The service's logger: the access log, `request.log` and unexpected errors go to it. */
  readonly logger: Logger;
  /** The largest JSON body read, in bytes (JSON_BODY_LIMIT by default). */
  readonly bodyLimit?: number;
  /**
   * Whether every route reads the API's input (apiInput: query strings in UTF-8, JSON bodies); true
   * by default. A server that serves more than the API (the gateway) says false and registers
   * apiInput in its API's context only; its other routes then read no body at all.
   */
  readonly apiInput?: boolean;
  /** How long a stop (close()) lets requests in flight finish before it cuts their connections (CLOSE_GRACE_MS by default). */
  readonly closeGraceMs?: number;
  /** The process's metrics: each answer is timed into them by route, method and status (none: not timed). */
  readonly metrics?: Metrics;
}

/** A stop's grace for requests in flight: longer than any read's statement timeout, short enough for a restart. */
export const CLOSE_GRACE_MS = 5_000;

/**
 * A Fastify server with the settings every service shares: request ids, access log lines, query
 * strings, JSON bodies and error bodies (`{"error":{"code","message","details?"}}`) as the API
 * answers them. Routes declare zod schemas (ZodTypeProvider); a value that does not pass is 400
 * VALIDATION_FAILED with one message per field, as parseInput answers.
 */
export function createHttpServer(options: HttpServerOptions) {
  const { logger, metrics } = options;
  const server = fastify({
    loggerInstance: logger,
    // the access log is the onRequest hook's (trackAnswer), in pino-http's shape (see logAnswer)
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? JSON_BODY_LIMIT,
    requestIdHeader: false,
    genReqId: requestIdFor,
    // a child of the service's logger, not of Fastify's (whose `req` serializer would drop the id), carrying the request's id, method and URL; made only if used
    childLoggerFactory: (_fastifyLogger, bindings, childOptions, req) => {
      const id: unknown = bindings.reqId;
      return new LazyChildLogger(logger, () => ({ req: { id, method: req.method, url: req.url } }), childOptions);
    },
    // the API's paths match without regard to a trailing slash or letter case: /api/posts/ and /API/posts are /api/posts (parameters keep their case)
    routerOptions: { querystringParser: (text) => parse(text), ignoreTrailingSlash: true, caseSensitive: false },
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, request, reply) => answerError(error, request, reply),
  }).withTypeProvider<ZodTypeProvider>();

  server.decorateRequest('principal', undefined);
  server.setValidatorCompiler(zodValidatorCompiler);
  server.setSerializerCompiler(serializerCompiler);

  server.addHook('onRequest', (request, reply, done) => {
    trackAnswer(logger, request.raw, reply.raw, request.id, request.routeOptions.url);
    if (metrics) observeAnswer(metrics, request.raw, reply.raw, request.routeOptions.url);
    if (request.routeOptions.config.probe !== true) traceRequest(request.raw, reply.raw, request.routeOptions.url);
    done();
  });
  // the request's span is the active one in its handler (what the handler traces is its child): the
  // first preHandler hook, run once the body is read (its reading runs outside any context)
  server.addHook('preHandler', (request, _reply, done) => inRequestSpan(request.raw, () => done()));

  // A stop ends in seconds, whatever the clients do: an answer sent once it began closes its
  // connection (Node's server.close() reaps only connections idle at that moment, and a keep-alive
  // client may hold the rest for the 72 s it was promised), and the grace's end cuts what is left.
  let closing = false;
  let graceOver: NodeJS.Timeout | undefined;
  server.addHook('preClose', (done) => {
    closing = true;
    graceOver = setTimeout(() => server.server.closeAllConnections(), options.closeGraceMs ?? CLOSE_GRACE_MS).unref();
    done();
  });
  server.addHook('onClose', (_instance, done) => {
    clearTimeout(graceOver);
    done();
  });
  server.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });

  // no body is read unless a context reads the API's input
  server.removeAllContentTypeParsers();
  server.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  if (options.apiInput !== false) apiInput(server);

  server.setErrorHandler((error, request, reply) => answerError(error, request, reply));
  server.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send(errorBody(ErrorCode.NOT_FOUND, 'No such endpoint'));
  });
  return server;
}

export type HttpServer = ReturnType<typeof createHttpServer>;

/**
 * How the API reads a request, for the context it is called on (and those inside it): a query
 * string whose %-escapes are not UTF-8 is 400; a body is JSON in UTF-8 (else 415), undone from its
 * Content-Encoding, read strictly: an object or an array, a byte order mark dropped (parseJsonBody).
 */
export function apiInput<L extends FastifyBaseLogger, P extends FastifyTypeProvider>(
  server: FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, L, P>,
): void {
  server.addHook('onRequest', (request, _reply, done) => {
    try {
      const query = request.url.indexOf('?');
      if (query >= 0) refuseQueryNotInUtf8(request.url.slice(query + 1));
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  server.addHook('preParsing', (request, _reply, payload, done) => {
    if (!hasBody(request.raw)) return done(null, payload);
    const type = request.headers['content-type'];
    if (!isJsonInUtf8(type) && !(request.routeOptions.config.formBody === true && isFormInUtf8(type))) return done(new UnsupportedMediaTypeError());
    try {
      done(null, decoded(payload, request.headers['content-encoding']));
    } catch (error) {
      done(error as Error);
    }
  });
  server.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    try {
      done(null, parseJsonBody(body, lengthOrChunks(request.raw)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // reached only by a route whose config says formBody (preParsing refuses the form elsewhere)
  server.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
    if (!isUtf8(body)) return done(notUtf8(), undefined);
    done(null, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads an HTML form's body (application/x-www-form-urlencoded, UTF-8) as well as JSON: its fields as strings. */
    formBody?: boolean;
    /** A health probe's route (/healthz, /readyz): asked every second, it makes no span (traceRequest). */
    probe?: boolean;
  }
}

/** Each of the database's faults is said in the log at most this often (every request meets it). */
const UNAVAILABLE_LOG_INTERVAL_MS = 5_000;
/** When each fault's line was last said, by its message. */
const unavailableSaidAt = new Map<string, number>();

/** The error's answer (errorAnswer); an unexpected one is logged with the request's id, a database out of reach now and then. */
function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const answer = errorAnswer(error);
  if (answer.unexpected) request.log.error({ err: error }, 'unhandled error');
  else if (answer.databaseUnavailable) sayUnavailable(error, request);
  void reply.code(answer.status).headers(answer.headers).send(answer.body);
}

/** Says why the database cannot serve, once every UNAVAILABLE_LOG_INTERVAL_MS: a full disk (an operator must free space) at level error, any other fault at warn. */
function sayUnavailable(error: unknown, request: FastifyRequest) {
  const diskFull = isDiskFull(error);
  const message = diskFull
    ? "the database's disk is full (No space left on device): writes answer 503 until space is freed on PostgreSQL's volume"
    : 'the database is unavailable: requests that need it answer 503 until it is back';
  if (Date.now() - (unavailableSaidAt.get(message) ?? 0) < UNAVAILABLE_LOG_INTERVAL_MS) return;
  unavailableSaidAt.set(message, Date.now());
  const { code, message: said } = error as { code?: unknown; message?: unknown };
  request.log[diskFull ? 'error' : 'warn']({ cause: { code, message: said } }, message);
}

/**
 * A JSON body: UTF-8 only, a byte order mark dropped, an object or an array (strict); an empty
 * body is `{}` when the request said it sent one, else undefined.
 */
export function parseJsonBody(body: Buffer, sent: boolean): unknown {
  if (!sent) return undefined;
  if (!isUtf8(body)) throw notUtf8();
  const text = body.toString('utf8');
  if (text.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text);
  } catch {
    throw notJson();
  }
  if (typeof value !== 'object' || value === null) throw notJson();
  return value;
}

const BYTE_ORDER_MARK = 0xfeff;

/** The encodings a body may come in (zstd where this Node has it); any other, x-gzip too, is 415. */
const DECOMPRESSORS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
  ...('createZstdDecompress' in zlib && { zstd: zlib.createZstdDecompress as () => Transform }),
};

/**
 * A body as it was before its Content-Encoding (see DECOMPRESSORS); any other encoding is 415.
 * The body limit counts the decoded bytes (Fastify reads `receivedEncodedLength` for the
 * Content-Length check).
 */
function decoded(payload: Readable, encoding: string | undefined): Readable {
  const name = (encoding ?? 'identity').toLowerCase();
  if (name === 'identity') return payload;
  const decompress = DECOMPRESSORS[name];
  if (!decompress) throw new UnsupportedMediaTypeError();
  const body = Object.assign(decompress(), { receivedEncodedLength: 0 });
  payload.on('data', (chunk: Buffer) => void (body.receivedEncodedLength += chunk.length));
  pipeline(payload, body, () => {});
  return body;
}

/** Whether a request says it has a body, even an empty one (a Content-Length, or chunks): an empty JSON body is `{}`. */
const lengthOrChunks = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;

/**
 * Route schemas are zod schemas; a value that fails is parseInput's ValidationError (one message per field).
 * Fastify hands a validator null for a part the request lacks (no body at all): the schemas read it
 * as undefined, as parseInput reads a missing part (a body is never null here: the JSON parser refuses it).
 */
const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data ?? undefined);
    return result.success ? { value: result.data } : { error: new ValidationError(fieldErrorsOf(result.error)) };
  };
