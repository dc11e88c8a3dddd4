import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEADER_CORRELATION_ID, HEADER_REQUEST_ID } from '@forum/contracts';
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat } from './config.ts';
import { redactSecrets } from './redact.ts';
import { endRequestSpan } from './tracing.ts';

export type { Logger };

declare module 'http' {
  interface IncomingMessage {
    /** The request id (see trackAnswer). */
    id?: string;
  }
}

/** The format of a log written to a stream: the one asked for (LOG_FORMAT), else pretty on a terminal and JSON anywhere else. */
export const logFormatFor = (asked: LogFormat | undefined, isTerminal: boolean): LogFormat => asked ?? (isTerminal ? 'pretty' : 'json');

/**
 * A service's logger, on stdout or on `destination`, in `format` (see logFormatFor: without a
 * destination, pretty when stdout is a terminal); errors under `err` are written by errorForLog.
 * Every line, of this logger and of its children, leaves with its secrets written `…` (redactSecrets).
 */
export function createLogger(service: string, level = 'info', output: { format?: LogFormat; destination?: DestinationStream } = {}): Logger {
  const options = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: errorForLog },
    hooks: { streamWrite: redactSecrets },
  };
  const format = logFormatFor(output.format, output.destination === undefined && process.stdout.isTTY === true);
  if (format === 'pretty') return pino(options, prettyStream(output.destination));
  return output.destination ? pino(options, output.destination) : pino(options);
}

/**
 * Fields the pretty line shows in its own way (see prettyLine), or that a person at a terminal does
 * not need. pino-pretty writes its own time and level only when the line has them.
 */
const PRETTY_IGNORED = 'time,level,pid,hostname,service,component,req,res,route,responseTime,correlationId';

/**
 * Lines such as `21:26:23 INFO  forum: GET /api/posts → 200 in 3 ms` (see prettyLine), the other
 * fields after them as JSON, an error's stack below. Written synchronously, so they come in order
 * with what the process prints itself (the banner).
 */
function prettyStream(destination?: DestinationStream): DestinationStream {
  return pretty({ destination: destination ?? 1, sync: true, ignore: PRETTY_IGNORED, singleLine: true, messageFormat: prettyLine });
}

const LEVEL_COLORS = { fatal: 'bgRed', error: 'red', warn: 'yellow', info: 'green', debug: 'blue', trace: 'gray' } as const;
/** The colorette colours pino-pretty hands over (its types name colorette's, which TypeScript cannot resolve from there). */
type Colors = Readonly<Record<(typeof LEVEL_COLORS)[keyof typeof LEVEL_COLORS] | 'white', (text: string) => string>>;

/**
 * A line's time (local, to the second), level, service (and component) and message; for a request
 * its method and URL first, and the answer's status and time in place of "request completed".
 */
const prettyLine = (log: Record<string, unknown>, messageKey: string, _levelLabel: string, { colors }: { colors: Colors }): string => {
  const label = (pino.levels.labels[Number(log.level)] ?? 'user') as keyof typeof LEVEL_COLORS;
  const level = colors[LEVEL_COLORS[label] ?? 'white'](label.toUpperCase().padEnd(5));
  const time = typeof log.time === 'string' || typeof log.time === 'number' ? new Date(log.time).toTimeString().slice(0, 8) : '';
  const service = [log.service, log.component].filter((name) => typeof name === 'string').join('/');
  const req = log.req as { method?: string; url?: string } | undefined;
  const res = log.res as { statusCode?: number } | undefined;
  const written = log[messageKey] ?? '';
  const message = typeof written === 'string' ? written : JSON.stringify(written);
  const request = req?.method && req.url ? `${req.method} ${req.url}` : '';
  const text =
    message === 'request completed' && res?.statusCode !== undefined
      ? `${request} → ${res.statusCode}${typeof log.responseTime === 'number' ? ` in ${log.responseTime} ms` : ''}`
      : [request, message].filter(Boolean).join(' ');
  return `${time} ${level} ${service ? `${service}: ` : ''}${text}`;
};

/** The fields of PostgreSQL's errors (pg's DatabaseError) that name what failed without quoting any value. */
const DATABASE_ERROR_FIELDS = ['code', 'severity', 'routine', 'schema', 'table', 'column', 'constraint', 'dataType'] as const;

/** A PostgreSQL error: a five-character SQLSTATE and a severity. */
const isDatabaseError = (error: unknown): error is Record<string, unknown> =>
  typeof error === 'object' &&
  error !== null &&
  typeof (error as { code?: unknown }).code === 'string' &&
  /^[0-9A-Z]{5}$/.test((error as { code: string }).code) &&
  typeof (error as { severity?: unknown }).severity === 'string';

/**
 * An error as the log writes it. A database error is written by its PostgreSQL code, what it
 * concerns (table, constraint…), the statement without its values (see recordStatement) and its
 * stack's frames: its message, detail and `where` quote the values, which are what users sent.
 * Any other error as pino writes it.
 */
function errorForLog(error: unknown): unknown {
  if (!isDatabaseError(error)) return pino.stdSerializers.err(error as Error);
  const fields = Object.fromEntries(DATABASE_ERROR_FIELDS.flatMap((field) => (typeof error[field] === 'string' ? [[field, error[field]]] : [])));
  const stack = typeof error.stack === 'string' ? error.stack.slice(Math.max(0, error.stack.indexOf('\n    at '))).trimStart() : undefined;
  const statement = statements.get(error);
  return { type: 'DatabaseError', ...fields, ...(statement && { statement }), ...(stack && { stack }) };
}

const statements = new WeakMap<object, string>();

/** Keeps the statement of a failed query (its text with $1… placeholders, never the values) for its error, for errorForLog. */
export function recordStatement(error: unknown, statement: unknown): void {
  if (typeof error === 'object' && error !== null && typeof statement === 'string') statements.set(error, statement);
}

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** An id the client sent, when it is a sane one; otherwise a new one. */
export function incomingId(value: string | string[] | undefined): string {
  return typeof value === 'string' && SAFE_ID.test(value) ? value : randomUUID();
}

/** The id a request is to have: the caller's X-Request-Id when it is a sane one, else a new one. */
export const requestIdFor = (req: IncomingMessage): string => incomingId(req.headers[REQUEST_ID_HEADER]);

const REQUEST_ID_HEADER = HEADER_REQUEST_ID.toLowerCase();

/**
 * The access log line of an answered request, the one line a request writes: in pino-http's shape
 * (`req`, `res`, `responseTime` in ms, 'request completed'), which log tools already read, with the
 * pattern of the route that answered (`route`: `/api/posts/:id`, never ids or a query; absent when no
 * route matched) and the `correlationId`. Info, warn from 400, error from 500; only
 * when the logger's level lets that through (nothing is built for a line nobody reads). The process's
 * own calls of its routes (`inject`) are debug. A 503 with
 * Retry-After (BUSY, READ_TIMEOUT: load the service shed on purpose) is a warning, not an error. A
 * health probe's answer (markProbeAnswer) is debug, whatever its status.
 */
export function logAnswer(logger: Logger, req: IncomingMessage, res: ServerResponse, startedAt: number, route?: string): void {
  // a client that left before the answer was sent: a warning, whatever the status; a stream's client leaving is how it ends
  const stream = streams.has(res);
  // the process's own call of its routes (Fastify's inject: the gateway reading for a page it renders) has no client to leave
  const injected = '_lightMyRequest' in req;
  const aborted = !res.writableFinished && !stream && !injected;
  const shed = res.statusCode === 503 && res.hasHeader('Retry-After');
  const level = probes.has(res) || injected ? 'debug' : res.statusCode >= 500 && !shed ? 'error' : res.statusCode >= 400 || aborted ? 'warn' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      req: { id: req.id, method: req.method, url: req.url },
      res: { statusCode: res.statusCode },
      route,
      responseTime: Math.round(performance.now() - startedAt),
      correlationId: correlationIdOf(req),
    },
    aborted ? 'request aborted' : stream ? 'stream ended' : 'request completed',
  );
}

const streams = new WeakSet<ServerResponse>();

/**
 * Marks an answer that streams until its client leaves (Server-Sent Events): its end is logged as the
 * end of a stream, not as an abort; its request's span ends now (endRequestSpan).
 */
export function markStreamingAnswer(res: ServerResponse): void {
  streams.add(res);
  endRequestSpan(res, true);
}

/** Whether markStreamingAnswer marked the answer (the metrics time no stream). */
export const isStreamingAnswer = (res: ServerResponse): boolean => streams.has(res);

const probes = new WeakSet<ServerResponse>();

/**
 * Marks the answer to a health probe (/healthz, /readyz): logged at debug. Gateways and load
 * balancers ask every second; a service that is not ready says why in its own lines (the database
 * unavailable), not in one line per probe.
 */
export function markProbeAnswer(res: ServerResponse): void {
  probes.add(res);
}

/**
 * A request's id and access log: `id` (requestIdFor's, made by the server) sent back as
 * X-Request-Id and kept on `req.id`, and the access log line once the answer is sent or the client
 * left (see logAnswer; `route`: the pattern of the route that takes it), unless the logger is silent.
 * Light on purpose: it runs for every request.
 */
export function trackAnswer(logger: Logger, req: IncomingMessage, res: ServerResponse, id = requestIdFor(req), route?: string): string {
  const startedAt = performance.now();
  req.id = id;
  res.setHeader(HEADER_REQUEST_ID, id);
  if (logger.isLevelEnabled('error')) res.once('close', () => logAnswer(logger, req, res, startedAt, route));
  return id;
}

const correlationIds = new WeakMap<IncomingMessage, string>();

/** The correlation id of a request: the caller's X-Correlation-Id, else the request id. */
export function correlationIdOf(req: IncomingMessage): string {
  let id = correlationIds.get(req);
  if (!id) {
    const sent = req.headers[HEADER_CORRELATION_ID.toLowerCase()];
    id = typeof sent === 'string' && SAFE_ID.test(sent) ? sent : String(req.id ?? randomUUID());
    correlationIds.set(req, id);
  }
  return id;
}

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
type ChildOptions = Parameters<Logger['child']>[1];
/** A log line's arguments: an object and/or a message, as pino takes them. */
type LogArgs = [unknown, string?, ...unknown[]];

/**
 * A request's logger (Fastify's `request.log`): `parent`'s child bound to `bindings`, made when
 * something is first logged through it. A pino child serialises its bindings as it is made, and
 * nearly every request logs nothing through its own logger (the access line is trackAnswer's), so
 * making one for each request was garbage for every read.
 */
export class LazyChildLogger {
  #made: Logger | undefined;
  readonly #parent: Logger;
  readonly #bindings: () => Record<string, unknown>;
  readonly #options: ChildOptions;

  constructor(parent: Logger, bindings: () => Record<string, unknown>, options?: ChildOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #logger(): Logger {
    return (this.#made ??= this.#parent.child<never>(this.#bindings(), this.#options));
  }

  get level(): string {
    return this.#made?.level ?? this.#options?.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.#made ? this.#made.isLevelEnabled(level) : this.#parent.isLevelEnabled(level);
  }

  child(bindings: Record<string, unknown>, options?: ChildOptions): Logger {
    return this.#logger().child<never>(bindings, options);
  }

  fatal(...args: LogArgs): void {
    this.#log('fatal', args);
  }
  error(...args: LogArgs): void {
    this.#log('error', args);
  }
  warn(...args: LogArgs): void {
    this.#log('warn', args);
  }
  info(...args: LogArgs): void {
    this.#log('info', args);
  }
  debug(...args: LogArgs): void {
    this.#log('debug', args);
  }
  trace(...args: LogArgs): void {
    this.#log('trace', args);
  }
  silent(): void {}

  #log(level: Exclude<LevelName, 'silent'>, args: LogArgs): void {
    if (!this.isLevelEnabled(level)) return;
    this.#logger()[level](...args);
  }
}
