import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEADER_IDEMPOTENCY_KEY } from '@forum/contracts';
import { errorAnswer, isJsonInUtf8, JSON_BODY_LIMIT, notUtf8, sendJson, trackAnswer, type Logger, type Principal, type TokenVerifier } from '@forum/platform';
import type { ForumCommands } from '../domain/forum.ts';
import { addComment, setVote } from './community.ts';
import { commandMeta, idempotencyFor, sendAccepted, type RouteCommand } from './context.ts';
import { createPost } from './posts.ts';

interface HotCommand {
  readonly method: string;
  /** Its path under /api; named groups are the path's parameters. */
  readonly path: RegExp;
  readonly status: number;
  readonly run: RouteCommand;
}

/**
 * The commands members send most (a vote, a comment, a post), answered without Express: the same
 * answers as the app's routes (the same functions run them: setVote, addComment, createPost), for
 * less of the forum's CPU than its router, body parser and response helpers take.
 *
 * Only what the app would take the same way: one of these methods and paths, no query string, a
 * Bearer token, a JSON body in UTF-8 of a stated length within the app's limit, not compressed.
 * Anything else goes to the app (its 401, 415-like refusals and error answers). What is answered
 * here gets what the app gives every request: the request id, the access log line, the token's
 * check, its Idempotency-Key, and the app's error answers (errorAnswer) for a body that is not
 * JSON and for input the route refuses.
 */
export function createHotCommands(deps: { commands: ForumCommands; verifyToken: TokenVerifier; logger: Logger; clock: () => Date }) {
  const { commands, verifyToken, logger, clock } = deps;
  const hot: HotCommand[] = [
    { method: 'PUT', path: /^\/posts\/(?<id>[^/]+)\/vote$/, status: 200, run: setVote(commands) },
    { method: 'POST', path: /^\/comments$/, status: 201, run: addComment(commands) },
    { method: 'POST', path: /^\/posts$/, status: 201, run: createPost(commands) },
  ];
  const idempotencyHeader = HEADER_IDEMPOTENCY_KEY.toLowerCase();

  /** Takes `req` if it is one of the hot commands (then true: it is under way), else false, and the app is to take it. */
  return function serveHot(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if (!url.startsWith('/api/') || url.includes('?')) return false;
    const path = url.slice(4);
    let command: HotCommand | undefined;
    let match: RegExpExecArray | null = null;
    for (const candidate of hot) {
      match = candidate.method === req.method ? candidate.path.exec(path) : null;
      if (match) {
        command = candidate;
        break;
      }
    }
    if (!command || !match) return false;
    const { authorization, 'content-type': type, 'content-encoding': encoding, 'content-length': length, 'transfer-encoding': chunked } = req.headers;
    if (!authorization?.startsWith('Bearer ') || !isJsonInUtf8(type) || (encoding !== undefined && encoding !== 'identity') || chunked !== undefined) return false;
    const size = Number(length);
    if (length === undefined || !Number.isInteger(size) || size > JSON_BODY_LIMIT) return false;
    let params: Record<string, string>;
    try {
      params = Object.fromEntries(Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]));
    } catch {
      return false;
    }
    trackAnswer(logger, req, res);
    void answer(req, res, command, params, authorization.slice('Bearer '.length).trim(), path);
    return true;
  };

  async function answer(req: IncomingMessage, res: ServerResponse, command: HotCommand, params: Record<string, string>, token: string, path: string) {
    try {
      const body = await jsonOf(req);
      const principal: Principal = await verifyToken(token);
      const key = req.headers[idempotencyHeader];
      const call = () => ({
        meta: commandMeta(req, principal, clock()),
        idempotency: idempotencyFor(Array.isArray(key) ? key.join(', ') : key, principal, `${req.method} /api${path}`, body),
      });
      sendAccepted(res, command.status, await command.run(principal, params, body, call));
    } catch (error) {
      if (res.headersSent || res.destroyed) return;
      const failed = errorAnswer(error);
      if (failed.unexpected) logger.error({ err: error, req: { id: req.id, method: req.method, url: req.url } }, 'unhandled error');
      sendJson(res, failed.status, failed.body, failed.headers);
    }
  }
}

/** The body as the app's strict JSON parser reads it: UTF-8, an object or an array; none at all is `{}`. */
async function jsonOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > JSON_BODY_LIMIT) throw Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' });
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  if (!isUtf8(bytes)) throw notUtf8();
  const text = bytes.toString('utf8');
  if (text.length === 0) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw Object.assign(new SyntaxError('The body is not valid JSON'), { status: 400, type: 'entity.parse.failed' });
  }
  if (typeof body !== 'object' || body === null) throw Object.assign(new SyntaxError('The body is not a JSON object or array'), { status: 400, type: 'entity.parse.failed' });
  return body;
}
