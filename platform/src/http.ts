import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { parse, type ParsedUrlQuery } from 'node:querystring';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from '@forum/contracts';
import { ErrorCode } from '@forum/contracts';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { AppError, RateLimitedError, UnsupportedMediaTypeError, ValidationError } from './errors.ts';
import { BusyError } from './bulkhead.ts';
import { isQueryCanceled, ReadTimeoutError } from './read-db.ts';
import type { Logger } from './logger.ts';

/** An Express app with the settings every service shares. */
export function createHttpApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', parseQueryString);
  return app;
}

/**
 * A query string as Node's `querystring` reads it (a key sent twice is a list, which the schemas
 * refuse), except that percent-encoded bytes that are not UTF-8 (`%ED%A0%80`, the bytes of a lone
 * surrogate; `%FF`) are refused with 400 rather than read as U+FFFD.
 */
export function parseQueryString(text: string | null | undefined): ParsedUrlQuery {
  if (!text) return {};
  refuseQueryNotInUtf8(text);
  return parse(text);
}

/** Throws the 400 of a query string whose percent-encoded bytes are not UTF-8 (see parseQueryString). */
export function refuseQueryNotInUtf8(text: string): void {
  if (MAY_BE_OTHER_THAN_UTF8.test(text) && !isUtf8(bytesOf(text))) throw new ValidationError({ _: ['The query string is not valid UTF-8'] });
}

/** A %XX escape or a character past ASCII: without either the query string is ASCII, so UTF-8 (the usual case: no decoding needed). */
const MAY_BE_OTHER_THAN_UTF8 = /[%\u0080-\uffff]/;

/** The bytes a query string's text stands for: its %XX escapes decoded, the rest as it came (one byte a character). */
const bytesOf = (text: string) => Buffer.from(text.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))), 'latin1');

/** `Content-Type: application/json`, in UTF-8 if a charset is named: the only body the services read. */
export function isJsonInUtf8(type: string | undefined): boolean {
  if (!type) return false;
  const [media, ...parameters] = type.split(';').map((part) => part.trim().toLowerCase());
  if (media !== 'application/json') return false;
  return parameters.every((parameter) => !parameter.startsWith('charset=') || parameter === 'charset=utf-8' || parameter === 'charset="utf-8"');
}

/** Whether a request carries a body (a length above 0, or chunks). */
export const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** The error of a body that is not UTF-8: refused, not read with replacement characters. */
export const notUtf8 = () => new ValidationError({ _: ['The body is not valid UTF-8'] }, 'The body is not valid UTF-8');

/** The error of a body that is not JSON (strict: an object or an array). */
export const notJson = () => new AppError(400, ErrorCode.VALIDATION_FAILED, 'The body is not valid JSON');

/** The error of a body over the limit. */
export const tooLarge = () => new AppError(413, ErrorCode.PAYLOAD_TOO_LARGE, 'The body is too large');

/** The largest JSON body the services read (bytes): jsonBody's, and the hot commands' that read it without Express. */
export const JSON_BODY_LIMIT = 100 * 1024;

/**
 * The JSON body of a command: a body in any other media type or charset is 415
 * UNSUPPORTED_MEDIA_TYPE, one that is not UTF-8 400; without a body `req.body` is undefined.
 */
export const jsonBody = (limit = JSON_BODY_LIMIT): RequestHandler[] => [
  (req, _res, next) => next(hasBody(req) && !isJsonInUtf8(req.headers['content-type']) ? new UnsupportedMediaTypeError() : undefined),
  express.json({
    limit,
    strict: true,
    verify: (_req, _res, buffer) => {
      if (!isUtf8(buffer)) throw notUtf8();
    },
  }),
];

/** `body` as JSON with its status and headers, as Express's `res.json` sends it, for answers written without Express. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}) {
  const text = JSON.stringify(body);
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json(errorBody(ErrorCode.NOT_FOUND, 'No such endpoint'));
};

/** What an error answers: its status, body and headers; `unexpected` ones are to be logged. Never a stack trace. */
export interface ErrorAnswer {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Readonly<Record<string, string>>;
  readonly unexpected: boolean;
}

/** The one place that turns errors into the HTTP error answer (errorHandler, and the read side's answers without Express). */
export function errorAnswer(error: unknown): ErrorAnswer {
  const answer = (status: number, body: ErrorBody, headers: Record<string, string> = {}, unexpected = false) => ({ status, body, headers, unexpected });
  if (isQueryCanceled(error)) error = new ReadTimeoutError();
  if (error instanceof AppError) {
    const retry: Record<string, string> =
      error instanceof RateLimitedError ? { 'Retry-After': String(error.retryAfterSeconds) } : error instanceof ReadTimeoutError || error instanceof BusyError ? { 'Retry-After': '1' } : {};
    return answer(error.status, errorBody(error.code, error.message, error.details), retry);
  }
  // body-parser's errors carry a status and a type, Fastify's a statusCode and a code
  const { status, statusCode, type, code } = (error ?? {}) as { status?: unknown; statusCode?: unknown; type?: unknown; code?: unknown };
  const refused = typeof status === 'number' ? status : statusCode;
  const known = type === 'entity.parse.failed' ? notJson() : type === 'entity.too.large' || code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? tooLarge() : refused === 415 ? new UnsupportedMediaTypeError() : null;
  if (known) return errorAnswer(known);
  if (typeof refused === 'number' && refused >= 400 && refused < 500) return answer(refused, errorBody(ErrorCode.VALIDATION_FAILED, 'The request could not be read'));
  return answer(500, errorBody(ErrorCode.INTERNAL, 'Something went wrong on our side'), {}, true);
}

/** Express's last handler: the error's answer (errorAnswer), unexpected errors logged. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return;
    const answer = errorAnswer(error);
    // the request logger's child carries the request id; fall back to the service logger
    if (answer.unexpected) ((req as { log?: Logger }).log ?? logger).error({ err: error }, 'unhandled error');
    res.status(answer.status).set(answer.headers).json(answer.body);
  };
}

/** What Node's HTTP parser refuses before any handler runs, by its error code. */
const PARSER_REFUSALS: Readonly<Record<string, { status: number; reason: string; code: string; message: string }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', code: ErrorCode.HEADERS_TOO_LARGE, message: 'The request headers are too large' },
};

/**
 * A request Node's HTTP parser cannot read (broken framing, headers too large) gets the error
 * body like any other refusal, instead of a bare status line, and its connection is closed.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', answerClientError);
}

/** The answer to one request Node's HTTP parser refused (see answerClientErrors; Fastify's clientErrorHandler). */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const refusal = PARSER_REFUSALS[error.code ?? ''] ?? { status: 400, reason: 'Bad Request', code: ErrorCode.VALIDATION_FAILED, message: 'The request could not be read' };
  const text = JSON.stringify(errorBody(refusal.code, refusal.message));
  socket.end(
    `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
