import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEADER_MIN_POSITION, HEADER_TOTAL_COUNT } from '@forum/contracts';
import type { RequestHandler, Response } from 'express';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';

/** Headers of an answer that belong to its body (the rest are the request's own: request id, X-Read-Behind…, and the gateway's CORS). */
const KEPT_HEADERS = ['content-type', HEADER_TOTAL_COUNT.toLowerCase(), 'content-range'];

/** The public reads (paths under /api): what a visitor may read. The rest need a token, and answer 401 without one. */
const PUBLIC_READ = /^\/(posts(\/[^/]+(\/comments)?)?|comments\/[^/]+|users\/top-voted|user-profile\/[^/]+|tags|announcements)$/;

interface Cached {
  readonly body: string;
  readonly bytes: number;
  readonly headers: readonly (readonly [string, string])[];
}

/**
 * Visitors' reads, served from memory and revalidated, as only a CQRS read side can: a read model
 * changes only when its checkpoint moves, so an answer holds until the read side's version (the
 * live builds and their checkpoints, see CheckpointWatcher.version) changes. Every visitor's 200
 * carries `ETag: W/"<version>"` and `Cache-Control: no-cache`: a browser asks again with
 * If-None-Match and gets a 304 without a statement run while nothing changed; another visitor
 * asking the same URL gets the bytes kept in memory. Signed-in callers are never served from
 * here (their answers hold their own vote, their email).
 *
 * Read-your-writes stays exact: a read with X-Min-Position has waited (minPosition, before this)
 * until the watcher knows the position applied, and that same notice changed the version, so
 * nothing kept from before can answer it. An answer is kept only if the version did not change
 * while it was read; it may then hold more than the version says, never less.
 *
 * `middleware` keeps answers, and serves them, within the query app. `serve` answers from memory
 * before any framework sees the request (the HTTP server's first step: no Express, no router, no
 * middleware), or returns false and leaves the request to the app; it takes only what the app
 * would answer from memory the same way: a GET or HEAD of a kept URL, with no Authorization and
 * no X-Min-Position.
 */
export interface VisitorCache {
  readonly middleware: RequestHandler;
  /**
   * For a visitor's public read of `key` (its URL), before it is read: the validators of the
   * current version, and a 304 or the kept answer if they apply ('answered'); else a function to
   * call with the 200's JSON text once its headers are set, which keeps it if the version held.
   * Undefined when nothing is kept (no version yet, or no room configured).
   */
  begin(req: IncomingMessage, res: ServerResponse, key: string): 'answered' | ((body: string) => void) | undefined;
  /** `onHit` runs when the request is answered from memory, before the answer is written (to add the request's own headers). */
  serve(req: IncomingMessage, res: ServerResponse, onHit: () => void): boolean;
}

export function createVisitorCache(watcher: CheckpointWatcher, options: { maxEntries: number }): VisitorCache {
  let version: string | null = null;
  let entries = new Map<string, Cached>();
  const current = () => {
    const now = watcher.version();
    if (now !== version) {
      version = now;
      entries = new Map();
    }
    return now;
  };
  /** The validators of version `at`, then a 304 or the kept answer; false when neither applies (nothing kept, no match). */
  const answer = (req: IncomingMessage, res: ServerResponse, at: string, hit: Cached | undefined): boolean => {
    const etag = `W/"${at}"`;
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'no-cache');
    // beside what the answer varies on already (the gateway's CORS: Origin), not in its place
    const vary = res.getHeader('Vary');
    res.setHeader('Vary', vary ? `${String(vary)}, Authorization` : 'Authorization');
    if (matches(req.headers['if-none-match'], etag)) {
      res.writeHead(304).end();
      return true;
    }
    if (!hit) return false;
    for (const [name, value] of hit.headers) res.setHeader(name, value);
    res.setHeader('Content-Length', hit.bytes);
    res.writeHead(200).end(req.method === 'HEAD' ? undefined : hit.body);
    return true;
  };
  const begin: VisitorCache['begin'] = (req, res, key) => {
    if (options.maxEntries === 0) return undefined;
    const at = current();
    if (at === null) return undefined;
    if (answer(req, res, at, entries.get(key))) return 'answered';
    return (body) => {
      if (res.statusCode !== 200 || current() !== at) return;
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
      const headers = KEPT_HEADERS.flatMap((name) => {
        const value = res.getHeader(name);
        return value === undefined ? [] : [[name, String(value)] as const];
      });
      entries.set(key, { body, bytes: Buffer.byteLength(body), headers });
    };
  };
  const middleware: RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || res.locals.principal || !PUBLIC_READ.test(req.path)) return next();
    const keep = begin(req, res, req.originalUrl);
    if (keep === 'answered') return;
    if (keep) keepWhatIsSent(res, keep);
    next();
  };
  const minPosition = HEADER_MIN_POSITION.toLowerCase();
  const serve: VisitorCache['serve'] = (req, res, onHit) => {
    if (options.maxEntries === 0 || (req.method !== 'GET' && req.method !== 'HEAD') || req.headers.authorization !== undefined || req.headers[minPosition] !== undefined) return false;
    const at = current();
    const hit = at === null ? undefined : entries.get(req.url ?? '');
    if (at === null || !hit) return false;
    onHit();
    return answer(req, res, at, hit);
  };
  return { middleware, serve, begin };
}

/** If-None-Match holds `etag` (a list, or *). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || `W/${t}` === etag;
  });
}

/** Calls `keep` with the JSON text a route sends through res.json. */
function keepWhatIsSent(res: Response, keep: (body: string) => void) {
  res.json = (value: unknown) => {
    const body = JSON.stringify(value);
    res.type('application/json');
    keep(body);
    return res.send(body);
  };
}
