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

export const jsonBody = (limit = '100kb'): RequestHandler => express.json({ limit, strict: true });

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json(errorBody(ErrorCode.NOT_FOUND, 'No such endpoint'));
};

/** The one place that turns errors into the HTTP error body. Never sends a stack trace. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return;
    if (isQueryCanceled(error)) error = new ReadTimeoutError();
    if (error instanceof AppError) {
      if (error instanceof ReadTimeoutError || error instanceof BusyError) res.set('Retry-After', '1');
      res.status(error.status).json(errorBody(error.code, error.message, error.details));
      return;
    }
    // body-parser's errors carry a status and a type
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (error?.type === 'entity.parse.failed') {
      res.status(400).json(errorBody(ErrorCode.VALIDATION_FAILED, 'The body is not valid JSON'));
      return;
    }
    if (error?.type === 'entity.too.large') {
      res.status(413).json(errorBody('PAYLOAD_TOO_LARGE', 'The body is too large'));
      return;
    }
    if (status >= 400 && status < 500) {
      res.status(status).json(errorBody(ErrorCode.VALIDATION_FAILED, 'The request could not be read'));
      return;
    }
    // the request logger's child carries the request id; fall back to the service logger
    ((req as { log?: Logger }).log ?? logger).error({ err: error }, 'unhandled error');
    res.status(500).json(errorBody(ErrorCode.INTERNAL, 'Something went wrong on our side'));
  };
}
