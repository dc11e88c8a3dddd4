import { createHash } from 'node:crypto';
import { CommandAccepted, HEADER_EVENT_POSITION, HEADER_IDEMPOTENCY_KEY, HEADER_IDEMPOTENT_REPLAYED, IDEMPOTENCY_KEY_PATTERN } from '@forum/contracts';
import { correlationIdOf, principalOfRequest, ValidationError, type Principal } from '@forum/platform';
import type { FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { CommandMeta } from '../domain/command.ts';
import type { Accepted, Identity } from '../domain/forum.ts';
import type { Executed, Idempotency } from '../domain/execute.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as it was sent, before the route's schema parsed it (see keepSentBody). */
    sentBody?: unknown;
  }
}

/**
 * A preValidation hook: the body as sent, kept before the route's schema replaces `request.body`
 * with what it parsed. An Idempotency-Key's fingerprint digests what was sent, so that a retry is
 * recognised whatever a schema trims or drops.
 */
export function keepSentBody(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  request.sentBody = request.body;
  done();
}

export function commandMeta(request: FastifyRequest, principal: Principal, now: Date): CommandMeta {
  const requestId = request.id;
  return {
    actorId: principal.subject,
    now,
    correlationId: correlationIdOf(request.raw),
    // the request is what caused the events; an idempotent retry keeps the first request's id
    causationId: requestId,
    requestId,
  };
}

const IDEMPOTENCY_HEADER = HEADER_IDEMPOTENCY_KEY.toLowerCase();

/**
 * The Idempotency-Key, scoped to the caller and the call (its method and path as sent, without the
 * query: `POST /api/posts`), with a digest of the body as sent.
 */
export function idempotencyOf(request: FastifyRequest, principal: Principal): Idempotency | undefined {
  const key = request.headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key))
    throw new ValidationError({ [HEADER_IDEMPOTENCY_KEY]: ['Must be 1 to 255 visible ASCII characters'] });
  const query = request.url.indexOf('?');
  const call = `${request.method} ${query < 0 ? request.url : request.url.slice(0, query)}`;
  return {
    key: `${principal.subject}:${call}:${key}`,
    fingerprint: createHash('sha256')
      .update(JSON.stringify(request.sentBody ?? null))
      .digest('base64url'),
  };
}

/** What a member's command is given besides its input: the caller's identity, the call's meta and its idempotency. */
export interface MemberCall {
  readonly identity: Identity;
  readonly meta: CommandMeta;
  readonly idempotency: Idempotency | undefined;
}

/** The call of the member `authenticate` found (401 for a visitor), once the route's schemas passed. */
export function memberCallOf(request: FastifyRequest, now: Date): MemberCall {
  const principal = principalOfRequest(request);
  return { identity: identityOf(principal), meta: commandMeta(request, principal, now), idempotency: idempotencyOf(request, principal) };
}

/** The claims a first registration records, from the verified token. */
export function identityOf(principal: Principal): Identity {
  return {
    userId: principal.subject,
    email: principal.email,
    emailVerified: principal.emailVerified,
    name: principal.name,
    photoURL: principal.picture,
    ...(principal.handle && { handle: principal.handle }),
  };
}

/** A command's answer: its status, the position of what it wrote, and whether it replays an earlier answer. */
export function sendAccepted(reply: FastifyReply, status: number, executed: Executed<Accepted>): FastifyReply {
  if (executed.answer.position) reply.header(HEADER_EVENT_POSITION, executed.answer.position);
  if (executed.duplicate) reply.header(HEADER_IDEMPOTENT_REPLAYED, 'true');
  return reply.code(status).send(executed.answer);
}

/**
 * A command's success answer for the API document (FastifySchema.answers): `status` with `body`
 * (CommandAccepted unless the command answers more) and X-Event-Position; a `keyed` command (one
 * that reads the Idempotency-Key: memberCallOf) may replay the first answer of a key.
 */
export function accepted(status: number, body: z.ZodType = CommandAccepted, { keyed = true } = {}): FastifySchema['answers'] {
  return { [status]: { body, headers: keyed ? [HEADER_EVENT_POSITION, HEADER_IDEMPOTENT_REPLAYED] : [HEADER_EVENT_POSITION] } };
}

/** Whether a route reads the Idempotency-Key: its answer may replay the key's first (see accepted). */
export const takesIdempotencyKey = (route: RouteOptions): boolean =>
  Object.values(route.schema?.answers ?? {}).some((answer) => answer.headers?.includes(HEADER_IDEMPOTENT_REPLAYED));
