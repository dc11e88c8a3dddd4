import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRACEPARENT } from '@forum/contracts';
import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { AppError } from './errors.ts';

/*
 * The forum's spans (docs/operations.md#traces), made through the OpenTelemetry API only: until the
 * composition registers an SDK (OTEL_EXPORTER_OTLP_ENDPOINT), the API's tracer is a no-op and each
 * span below costs a small object; attributes and links are built only for a span that records.
 */

let provider: TracerProvider | undefined;
let tracer: Tracer | undefined;

/**
 * The forum's tracer, from the provider registered now: one taken once would keep a provider that was
 * since replaced (a test registers its own, then unregisters it).
 */
function forumTracer(): Tracer {
  const current = trace.getTracerProvider();
  if (current !== provider || !tracer) {
    provider = current;
    tracer = current.getTracer('forum');
  }
  return tracer;
}

export interface SpanOptions {
  /** The span's attributes, asked for only when it records. */
  readonly attributes?: () => Attributes;
  /** Spans it follows from (the commands of a batch), asked for only when it records. */
  readonly links?: () => readonly Link[];
  /** Its parent: the active span by default; `root` starts a trace of its own. */
  readonly parent?: Context | 'root';
  /** The code of an error that is an outcome, not a failure (a version conflict, a rule that says no); undefined for a failure. */
  readonly refusal?: (error: unknown) => string | undefined;
}

/**
 * `work` inside a span of its own (the active one while it runs), ended when it settles. An error
 * that is a refusal (`refusal`, or one that answers below 500) is said by its code; any other marks
 * the span failed, by its type and code only: messages may quote what members sent.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const parent = options.parent === 'root' ? ROOT_CONTEXT : (options.parent ?? context.active());
  const span = forumTracer().startSpan(name, { kind: SpanKind.INTERNAL }, parent);
  // tracing is off: the no-op span is nothing to end, nor a context to run in
  if (!isSpanContextValid(span.spanContext())) return work(span);
  if (span.isRecording()) {
    if (options.attributes) span.setAttributes(options.attributes());
    if (options.links) span.addLinks([...options.links()]);
  }
  return inContext(trace.setSpan(parent, span), span, options, work);
}

async function inContext<T>(traced: Context, span: Span, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await context.with(traced, () => work(span));
  } catch (error) {
    const refused = span.isRecording() ? options.refusal?.(error) : undefined;
    if (refused === undefined) spanFailed(span, error);
    else span.setAttribute('forum.error.code', refused);
    throw error;
  } finally {
    span.end();
  }
}

/** Says on `span` why it failed (see inSpan): an error the API answers below 500 by its code, any other by its type (and code: a PostgreSQL error's SQLSTATE). */
function spanFailed(span: Span, error: unknown): void {
  if (!span.isRecording()) return;
  if (error instanceof AppError && error.status < 500) return void span.setAttribute('forum.error.code', error.code);
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  const type = typeof name === 'string' ? name : 'Error';
  span.setAttributes({ 'error.type': type, ...(typeof code === 'string' && { 'forum.error.code': code }) });
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** The active span as a W3C `traceparent`, for an event's metadata; none when no span is traced. */
export function activeTraceparent(): string | undefined {
  const span = trace.getActiveSpan()?.spanContext();
  if (!span || !isSpanContextValid(span)) return undefined;
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The span a stored `traceparent` names (an event's metadata, see activeTraceparent); none for anything else. */
export function spanContextOf(traceparent: unknown): SpanContext | undefined {
  if (typeof traceparent !== 'string' || !TRACEPARENT.test(traceparent)) return undefined;
  const [, traceId, spanId, flags] = traceparent.split('-') as [string, string, string, string];
  return { traceId, spanId, traceFlags: parseInt(flags, 16), isRemote: true };
}

/** At most this many links from one batch's span: a rebuild's batch holds thousands of commands. */
const MAX_LINKS = 32;

/**
 * How the span of a batch of events (a projection's, the change stream's) joins the traces of the
 * commands that wrote them (each event's `traceparent`): a batch of one command's events is a child
 * of that command's span; a batch of several commands' links to each (at most MAX_LINKS).
 */
export function batchJoin(events: readonly { readonly metadata: { readonly traceparent?: string | undefined } }[]): Pick<SpanOptions, 'parent' | 'links'> {
  const contexts = new Map<string, SpanContext>();
  for (const event of events) {
    const { traceparent } = event.metadata;
    if (traceparent === undefined || contexts.has(traceparent)) continue;
    const span = spanContextOf(traceparent);
    if (span) contexts.set(traceparent, span);
    if (contexts.size > MAX_LINKS) break;
  }
  const [only, ...others] = contexts.values();
  if (only && others.length === 0) return { parent: trace.setSpanContext(ROOT_CONTEXT, only) };
  return { parent: 'root', links: () => [...contexts.values()].slice(0, MAX_LINKS).map((span) => ({ context: span })) };
}

/** Each traced request's context (its span), by its request. */
const requestContexts = new WeakMap<IncomingMessage, Context>();
/** Each traced request's span, by its answer. */
const requestSpans = new WeakMap<ServerResponse, Span>();

/**
 * The span of a request the server takes (an onRequest hook's), named by its route's pattern: the
 * child of the caller's W3C `traceparent` when it sent a valid one (anything else is ignored: a new
 * trace), ended when its answer is sent or its client leaves. Nothing when tracing is off.
 */
export function traceRequest(req: IncomingMessage, res: ServerResponse, route: string | undefined): void {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const method = req.method ?? 'GET';
  const span = forumTracer().startSpan(route ? `${method} ${route}` : method, { kind: SpanKind.SERVER }, parent);
  if (!isSpanContextValid(span.spanContext())) return;
  if (span.isRecording()) {
    const query = req.url?.indexOf('?') ?? -1;
    span.setAttributes({
      'http.request.method': method,
      'url.path': query >= 0 ? req.url!.slice(0, query) : (req.url ?? '/'),
      ...(route && { 'http.route': route }),
      ...(req.id && { 'forum.request.id': req.id }),
    });
  }
  requestContexts.set(req, trace.setSpan(parent, span));
  requestSpans.set(res, span);
  res.once('close', () => endRequestSpan(res));
}

/**
 * Runs `next` (the rest of a request's hooks and its handler) with the request's span active, so that
 * what the handler traces is its child. A preHandler hook calls it: the body's reading, before, runs
 * outside any context.
 */
export function inRequestSpan(req: IncomingMessage, next: () => void): void {
  const traced = requestContexts.get(req);
  if (traced) context.with(traced, next);
  else next();
}

/**
 * Ends the span of a request once its answer is sent (or its client left): its status, an error from
 * 500. A stream's (Server-Sent Events, `streaming`) ends as it opens: a span that lasts as long as
 * a tab stays open would reach the collector hours later, if ever.
 */
export function endRequestSpan(res: ServerResponse, streaming = false): void {
  const span = requestSpans.get(res);
  if (!span) return;
  requestSpans.delete(res);
  if (span.isRecording()) {
    span.setAttribute('http.response.status_code', res.statusCode);
    if (streaming) span.setAttribute('forum.http.streaming', true);
    else if (!res.writableFinished) span.setAttribute('forum.http.aborted', true);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * `headers` of a request passed on to a service (the gateway's proxy) with the W3C Trace Context
 * headers of the request's span in place of those the client sent; as they are when it is not traced.
 */
export function withTraceHeaders<H extends Record<string, unknown>>(req: IncomingMessage, headers: H): H {
  const traced = requestContexts.get(req);
  if (!traced) return headers;
  const { traceparent: _sent, tracestate: _state, ...others } = headers;
  const carried: Record<string, string> = {};
  propagation.inject(traced, carried);
  return { ...others, ...carried } as unknown as H;
}
