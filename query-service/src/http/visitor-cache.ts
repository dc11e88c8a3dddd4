import type { RequestHandler, Response } from 'express';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';

/** Headers of an answer that belong to its body (the rest are the request's own: request id, X-Read-Behind…). */
const KEPT_HEADERS = ['content-type', 'x-total-count', 'content-range', 'access-control-expose-headers'];

/** The public reads (paths under /api): what a visitor may read. The rest need a token, and answer 401 without one. */
const PUBLIC_READ = /^\/(posts(\/[^/]+)?|comments\/[^/]+|users\/top-voted|user-profile\/[^/]+|tags|announcements)$/;

interface Cached {
  readonly body: string;
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
 */
export function visitorCache(watcher: CheckpointWatcher, options: { maxEntries: number }): RequestHandler {
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
  return (req, res, next) => {
    if (options.maxEntries === 0 || (req.method !== 'GET' && req.method !== 'HEAD') || res.locals.principal || !PUBLIC_READ.test(req.path)) return next();
    const at = current();
    if (at === null) return next();
    const etag = `W/"${at}"`;
    res.set('ETag', etag).set('Cache-Control', 'no-cache').set('Vary', 'Authorization');
    if (matches(req.get('If-None-Match'), etag)) {
      res.status(304).end();
      return;
    }
    const key = req.originalUrl;
    const hit = entries.get(key);
    if (hit) {
      for (const [name, value] of hit.headers) res.set(name, value);
      res.status(200).send(hit.body);
      return;
    }
    keepWhatIsSent(res, (body) => {
      if (res.statusCode !== 200 || current() !== at) return;
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
      const headers = KEPT_HEADERS.flatMap((name) => {
        const value = res.get(name);
        return value === undefined ? [] : [[name, value] as const];
      });
      entries.set(key, { body, headers });
    });
    next();
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

/** Calls `keep` with the JSON text a route sends through res.json. */
function keepWhatIsSent(res: Response, keep: (body: string) => void) {
  res.json = (value: unknown) => {
    const body = JSON.stringify(value);
    res.type('application/json');
    keep(body);
    return res.send(body);
  };
}
