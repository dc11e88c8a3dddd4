import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEADER_EVENT_POSITION, HEADER_IDEMPOTENCY_KEY } from '@forum/contracts';
import { correlationIdOf, sendJson, ValidationError, type Principal } from '@forum/platform';
import type { Request } from 'express';
import type { CommandMeta } from '../domain/command.ts';
import type { Accepted, Identity } from '../domain/forum.ts';
import type { Executed, Idempotency } from '../domain/handle.ts';

export function commandMeta(req: IncomingMessage, principal: Principal, now: Date): CommandMeta {
  const requestId = String(req.id);
  return {
    actorId: principal.subject,
    now,
    correlationId: correlationIdOf(req),
    // the request is what caused the events; an idempotent retry keeps the first request's id
    causationId: requestId,
    requestId,
  };
}

const KEY = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key, scoped to the caller and the call, with a digest of the request body. */
export function idempotencyOf(req: Request, principal: Principal): Idempotency | undefined {
  return idempotencyFor(req.get(HEADER_IDEMPOTENCY_KEY), principal, `${req.method} ${req.baseUrl}${req.path}`, req.body);
}

/** The Idempotency-Key `key` (if any) of a call (its method and path) by `principal` with `body`. */
export function idempotencyFor(key: string | undefined, principal: Principal, call: string, body: unknown): Idempotency | undefined {
  if (key === undefined) return undefined;
  if (!KEY.test(key)) throw new ValidationError({ [HEADER_IDEMPOTENCY_KEY]: ['Must be 1 to 255 visible ASCII characters'] });
  return {
    key: `${principal.subject}:${call}:${key}`,
    fingerprint: createHash('sha256').update(JSON.stringify(body ?? null)).digest('base64url'),
  };
}

/** What a command is told of its request: its meta, and its idempotency (read when asked, after the input). */
export interface CommandCall {
  readonly meta: CommandMeta;
  readonly idempotency: Idempotency | undefined;
}

/** The meta and idempotency of a command called through the app's route. */
export function callOf(req: Request, principal: Principal, now: Date): CommandCall {
  return { meta: commandMeta(req, principal, now), idempotency: idempotencyOf(req, principal) };
}

/**
 * A command as a route runs it, the app's and the hot path's alike (see createHotCommands): the
 * caller, the path's parameters, the body, and the call's meta and idempotency, asked for after the input is read.
 */
export type RouteCommand = (principal: Principal, params: unknown, body: unknown, call: () => CommandCall) => Promise<Executed<Accepted>>;

/** The claims a first registration records, from the verified token. */
export function identityOf(principal: Principal): Identity {
  return { userId: principal.subject, email: principal.email, emailVerified: principal.emailVerified, name: principal.name, photoURL: principal.picture };
}

/** A command's answer: its status, the position of what it wrote, and whether it replays an earlier answer. */
export function sendAccepted(res: ServerResponse, status: number, executed: Executed<Accepted>) {
  const headers: Record<string, string> = {};
  if (executed.answer.position) headers[HEADER_EVENT_POSITION] = executed.answer.position;
  if (executed.duplicate) headers['Idempotent-Replayed'] = 'true';
  sendJson(res, status, executed.answer, headers);
}
