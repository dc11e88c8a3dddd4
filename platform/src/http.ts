import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from '@forum/contracts';
import { ERROR_STATUS, ErrorCode } from '@forum/contracts';
import { AppError, RateLimitedError, UnsupportedMediaTypeError, ValidationError } from './errors.ts';
import { BusyError } from './bulkhead.ts';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './database-unavailable.ts';
import { isQueryCanceled, ReadTimeoutError } from './read-db.ts';

/**
 * Throws the 400 of a query string whose percent-encoded bytes are not UTF-8 (`%ED%A0%80`, the
 * bytes of a lone surrogate; `%FF`): refused rather than read as U+FFFD. The query string is
 * otherwise read as Node's `querystring` reads it (a key sent twice is a list, which the schemas refuse).
 */
export function refuseQueryNotInUtf8(text: string): void {
  if (MAY_BE_OTHER_THAN_UTF8.test(text) && !isUtf8(bytesOf(text))) throw new ValidationError({ _: ['The query string is not valid UTF-8'] });
}

/** A %XX escape or a character past ASCII: without either the query string is ASCII, so UTF-8 (the usual case: no decoding needed). */
const MAY_BE_OTHER_THAN_UTF8 = /[%\u0080-\uffff]/;

/** The bytes a query string's text stands for: its %XX escapes decoded, the rest as it came (one byte a character). */
const bytesOf = (text: string) =>
  Buffer.from(
    text.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  );

/** `Content-Type: application/json`, in UTF-8 if a charset is named: the only body the services read. */
export function isJsonInUtf8(type: string | undefined): boolean {
  if (!type) return false;
  const [media, ...parameters] = type.split(';').map((part) => part.trim().toLowerCase());
  if (media !== 'application/json') return false;
  return parameters.every((parameter) => !parameter.startsWith('charset=') || parameter === 'charset=utf-8' || parameter === 'charset="utf-8"');
}

/** `Content-Type: application/x-www-form-urlencoded` (a charset, if named, UTF-8): read only by routes that say so (`config.formBody`). */
export function isFormInUtf8(type: string | undefined): boolean {
  if (!type) return false;
  const [media, ...parameters] = type.split(';').map((part) => part.trim().toLowerCase());
  if (media !== 'application/x-www-form-urlencoded') return false;
  return parameters.every((parameter) => !parameter.startsWith('charset=') || parameter === 'charset=utf-8' || parameter === 'charset="utf-8"');
}

/** Whether a request carries a body (a length above 0, or chunks). */
export const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** The error of a body that is not UTF-8: refused, not read with replacement characters. */
export const notUtf8 = () => new ValidationError({ _: ['The body is not valid UTF-8'] }, 'The body is not valid UTF-8');

/** The error of a body that is not JSON (strict: an object or an array). */
export const notJson = () => new AppError(ErrorCode.VALIDATION_FAILED, 'The body is not valid JSON');

/** The error of a body over the limit. */
export const tooLarge = () => new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'The body is too large');

/** The largest JSON body the services read (bytes): createHttpServer's bodyLimit unless it is given another. */
export const JSON_BODY_LIMIT = 100 * 1024;

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/**
 * What an error answers: its status, body and headers; `unexpected` ones are to be logged, and
 * `databaseUnavailable` ones said in the log (not per request). Never a stack trace.
 */
export interface ErrorAnswer {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Readonly<Record<string, string>>;
  readonly unexpected: boolean;
  readonly databaseUnavailable?: boolean;
}

/** The one place that turns errors into the HTTP error answer (createHttpServer's error handler, and answers written outside it). */
export function errorAnswer(error: unknown): ErrorAnswer {
  const answer = (status: number, body: ErrorBody, headers: Record<string, string> = {}, unexpected = false) => ({ status, body, headers, unexpected });
  if (isQueryCanceled(error)) error = new ReadTimeoutError();
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) return { ...errorAnswer(new DatabaseUnavailableError()), databaseUnavailable: true };
  if (error instanceof AppError) {
    const retry: Record<string, string> =
      error instanceof RateLimitedError
        ? { 'Retry-After': String(error.retryAfterSeconds) }
        : error instanceof ReadTimeoutError || error instanceof BusyError || error instanceof DatabaseUnavailableError
          ? { 'Retry-After': '1' }
          : {};
    return answer(error.status, errorBody(error.code, error.message, error.details), retry);
  }
  // Fastify's own refusals (a body over the limit, one it cannot read) carry a statusCode and a code
  const { statusCode: refused, code } = (error ?? {}) as { statusCode?: unknown; code?: unknown };
  const known = code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? tooLarge() : refused === 415 ? new UnsupportedMediaTypeError() : null;
  if (known) return errorAnswer(known);
  if (typeof refused === 'number' && refused >= 400 && refused < 500)
    return answer(refused, errorBody(ErrorCode.VALIDATION_FAILED, 'The request could not be read'));
  return answer(ERROR_STATUS.INTERNAL, errorBody(ErrorCode.INTERNAL, 'Something went wrong on our side'), {}, true);
}

/** What Node's HTTP parser refuses before any handler runs, by its error code. */
const PARSER_REFUSALS: Readonly<Record<string, { status: number; reason: string; code: string; message: string }>> = {
  HPE_HEADER_OVERFLOW: {
    status: ERROR_STATUS.HEADERS_TOO_LARGE,
    reason: 'Request Header Fields Too Large',
    code: ErrorCode.HEADERS_TOO_LARGE,
    message: 'The request headers are too large',
  },
};

/**
 * A request Node's HTTP parser cannot read (broken framing, headers too large) gets the error
 * body like any other refusal, instead of a bare status line, and its connection is closed: for a
 * server of Node's own (the embedded forum binds one before its gateway is built).
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', answerClientError);
}

/** The answer to one request Node's HTTP parser refused (see answerClientErrors; createHttpServer's clientErrorHandler). */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const refusal = PARSER_REFUSALS[error.code ?? ''] ?? {
    status: ERROR_STATUS.VALIDATION_FAILED,
    reason: 'Bad Request',
    code: ErrorCode.VALIDATION_FAILED,
    message: 'The request could not be read',
  };
  const text = JSON.stringify(errorBody(refusal.code, refusal.message));
  socket.end(
    `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
