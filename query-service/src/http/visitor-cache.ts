import { HEADER_MIN_POSITION, HEADER_TOTAL_COUNT } from '@forum/contracts';
import type { Metrics } from '@forum/platform';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A read a visitor may make: their answer is kept in memory and revalidated (see VisitorCache). */
    readonly publicRead?: boolean;
    /** A public read whose body does not depend on who asks: a member's read is answered from the same memory. */
    readonly sharedBody?: boolean;
  }
}

/** Headers of an answer that belong to its body (the rest are the request's own: request id, X-Read-Behind…, and the gateway's CORS). */
const KEPT_HEADERS = ['content-type', HEADER_TOTAL_COUNT.toLowerCase(), 'content-range'];
const MIN_POSITION = HEADER_MIN_POSITION.toLowerCase();

interface Cached {
  readonly body: string;
  readonly headers: readonly (readonly [string, string])[];
}

/**
 * Answers served from memory, as only a CQRS read side can: a read model changes only when its
 * checkpoint moves, so an answer holds until the read side's version (the live builds and their
 * checkpoints, see CheckpointWatcher.version) changes. An answer is kept only if the version did not
 * change while it was read; it may then hold more than the version says, never less.
 *
 * Visitors (routes with `config.publicRead`): every 200 carries `ETag: W/"<version>"` and
 * `Cache-Control: no-cache`, so a browser asks again with If-None-Match and gets a 304 without a
 * statement run while nothing changed; another visitor asking the same URL gets the kept bytes.
 * A visitor's read without Authorization and without X-Min-Position is answered in `visitors`,
 * before any other hook of the API runs (no token to verify, no position to wait for).
 *
 * Members (routes with `config.sharedBody`: the body holds nothing of the viewer's): after the
 * viewer's hooks (a refused account is still 401, X-Min-Position still waited), their read is
 * answered with the same kept bytes and only the body's own headers: a member's answer carries no
 * validators, as it never did. Reads whose body is the viewer's own (their vote, an email they may
 * see) are never served from here.
 *
 * Read-your-writes stays exact: a read with X-Min-Position has waited (minPosition) until the watcher
 * knows the position applied, and that same notice changed the version, so nothing kept from before
 * can answer it.
 */
export interface VisitorCache {
  /** onRequest, the API's first hook: a visitor's public read without Authorization and X-Min-Position. */
  readonly visitors: onRequestHookHandler;
  /** After the viewer's hooks: a visitor's public read that came with either header, and a member's read of a shared body. */
  readonly afterViewer: onRequestHookHandler;
  /** onSend: keeps the 200's body of a read the hooks above could not answer, if the version held. */
  readonly keep: onSendHookHandler<unknown>;
}

export function createVisitorCache(
  watcher: CheckpointWatcher,
  /**
   * `maxBodyLength`: a longer body is not kept (its read still answers 304 to a matching If-None-Match);
   * `maxLength`: the kept bodies' length in all, the oldest leaving first past it (a stranger's many
   * query strings on large answers then cost no more memory than this).
   */
  options: { maxEntries: number; maxBodyLength?: number; maxLength?: number; metrics?: Metrics | undefined },
): VisitorCache {
  /** forum_visitor_cache_lookups_total: each look into the memory, by who reads and what it found. */
  const counted = (reader: 'visitor' | 'member', result: 'hit' | 'miss' | 'not_modified') => options.metrics?.visitorCache.inc({ reader, result });
  let version: string | null = null;
  let entries = new Map<string, Cached>();
  /** The kept bodies' length in all. */
  let length = 0;
  /** The requests whose answer is to be kept, and the version they were read at. */
  const reading = new WeakMap<FastifyRequest, string>();
  const current = () => {
    const now = watcher.version();
    if (now !== version) {
      version = now;
      entries = new Map();
      length = 0;
    }
    return now;
  };
  const isRead = (request: FastifyRequest) => request.method === 'GET' || request.method === 'HEAD';

  /** The kept answer of `request` if there is one (then true: it is sent), else false, and the answer will be kept once read. */
  const answerOrKeep = (request: FastifyRequest, reply: FastifyReply, at: string, reader: 'visitor' | 'member'): boolean => {
    const hit = entries.get(request.url);
    counted(reader, hit ? 'hit' : 'miss');
    if (!hit) {
      reading.set(request, at);
      return false;
    }
    for (const [name, value] of hit.headers) reply.header(name, value);
    void reply.send(hit.body);
    return true;
  };

  /** A visitor's read: the validators of the current version, then a 304 or the kept answer. */
  const answerVisitor = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (options.maxEntries === 0) return false;
    const at = current();
    if (at === null) return false;
    const etag = `W/"${at}"`;
    reply.header('ETag', etag);
    reply.header('Cache-Control', 'no-cache');
    // beside what the answer varies on already (the gateway's CORS: Origin), not in its place
    const vary = reply.getHeader('Vary');
    reply.header('Vary', vary ? `${String(vary)}, Authorization` : 'Authorization');
    if (matches(request.headers['if-none-match'], etag)) {
      counted('visitor', 'not_modified');
      void reply.code(304).send();
      return true;
    }
    return answerOrKeep(request, reply, at, 'visitor');
  };

  const comesEarly = (request: FastifyRequest) => request.headers.authorization === undefined && request.headers[MIN_POSITION] === undefined;

  return {
    visitors(request, reply, done) {
      // the headers first: Fastify builds request.routeOptions afresh at each read
      if (isRead(request) && comesEarly(request) && request.routeOptions.config.publicRead && answerVisitor(request, reply)) return;
      done();
    },
    afterViewer(request, reply, done) {
      if (!isRead(request)) return done();
      const { config } = request.routeOptions;
      if (!config.publicRead) return done();
      if (!request.principal) {
        if (!comesEarly(request) && answerVisitor(request, reply)) return;
      } else if (config.sharedBody && options.maxEntries > 0) {
        const at = current();
        if (at !== null && answerOrKeep(request, reply, at, 'member')) return;
      }
      done();
    },
    keep(request, reply, payload, done) {
      const at = reading.get(request);
      if (
        at !== undefined &&
        reply.statusCode === 200 &&
        typeof payload === 'string' &&
        payload.length <= (options.maxBodyLength ?? Infinity) &&
        current() === at
      ) {
        const maxLength = options.maxLength ?? Infinity;
        length -= entries.get(request.url)?.body.length ?? 0;
        entries.delete(request.url);
        while (entries.size > 0 && (entries.size >= options.maxEntries || length + payload.length > maxLength)) {
          const [oldest, { body }] = entries.entries().next().value!;
          entries.delete(oldest);
          length -= body.length;
        }
        length += payload.length;
        const headers = KEPT_HEADERS.flatMap((name) => {
          const value = reply.getHeader(name);
          return value === undefined ? [] : [[name, String(value)] as const];
        });
        entries.set(request.url, { body: payload, headers });
      }
      done(null, payload);
    },
  };
}

/** If-None-Match holds `etag` (a list, or *). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || `W/${t}` === etag;
  });
}
