import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEADER_CORRELATION_ID, HEADER_REQUEST_ID } from '@forum/contracts';
import { pino, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';

export type { Logger };

export function createLogger(service: string, level = 'info'): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime });
}

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** An id the client sent, when it is a sane one; otherwise a new one. */
export function incomingId(value: string | string[] | undefined): string {
  return typeof value === 'string' && SAFE_ID.test(value) ? value : randomUUID();
}

/** JSON access log with a request id (X-Request-Id in and out) and the correlation id. */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const id = incomingId(req.headers[HEADER_REQUEST_ID.toLowerCase()]);
      res.setHeader(HEADER_REQUEST_ID, id);
      return id;
    },
    customProps(req: IncomingMessage) {
      return { correlationId: correlationIdOf(req) };
    },
    customLogLevel(_req, res, error) {
      if (error || res.statusCode >= 500) return 'error';
      return res.statusCode >= 400 ? 'warn' : 'info';
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}

const correlationIds = new WeakMap<IncomingMessage, string>();

/** The correlation id of a request: the caller's X-Correlation-Id, else the request id. */
export function correlationIdOf(req: IncomingMessage & { id?: unknown }): string {
  let id = correlationIds.get(req);
  if (!id) {
    const sent = req.headers[HEADER_CORRELATION_ID.toLowerCase()];
    id = typeof sent === 'string' && SAFE_ID.test(sent) ? sent : String(req.id ?? randomUUID());
    correlationIds.set(req, id);
  }
  return id;
}
