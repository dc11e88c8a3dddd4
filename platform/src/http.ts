import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from '@forum/contracts';
import { ErrorCode } from '@forum/contracts';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { AppError } from './errors.ts';
import { BusyError } from './bulkhead.ts';
import { isQueryCanceled, ReadTimeoutError } from './read-db.ts';
import type { Logger } from './logger.ts';

/** An Express app with the settings every service shares. */
export function createHttpApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  return app;
}

/** The largest JSON body the services read (bytes): jsonBody's, and the hot commands' that read it without Express. */
export const JSON_BODY_LIMIT = 100 * 1024;

export const jsonBody = (limit = JSON_BODY_LIMIT): RequestHandler => express.json({ limit, strict: true });

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
    const retry: Record<string, string> = error instanceof ReadTimeoutError || error instanceof BusyError ? { 'Retry-After': '1' } : {};
    return answer(error.status, errorBody(error.code, error.message, error.details), retry);
  }
  // body-parser's errors carry a status and a type
  const { status, type } = (error ?? {}) as { status?: unknown; type?: unknown };
  if (type === 'entity.parse.failed') return answer(400, errorBody(ErrorCode.VALIDATION_FAILED, 'The body is not valid JSON'));
  if (type === 'entity.too.large') return answer(413, errorBody(ErrorCode.PAYLOAD_TOO_LARGE, 'The body is too large'));
  if (typeof status === 'number' && status >= 400 && status < 500) return answer(status, errorBody(ErrorCode.VALIDATION_FAILED, 'The request could not be read'));
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
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal = PARSER_REFUSALS[error.code ?? ''] ?? { status: 400, reason: 'Bad Request', code: ErrorCode.VALIDATION_FAILED, message: 'The request could not be read' };
    const text = JSON.stringify(errorBody(refusal.code, refusal.message));
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  });
}
