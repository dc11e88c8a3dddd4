import { createHash } from 'node:crypto';
import { HEADER_EVENT_POSITION, HEADER_IDEMPOTENCY_KEY } from '@forum/contracts';
import { correlationIdOf, ValidationError, type Principal } from '@forum/platform';
import type { Request, Response } from 'express';
import type { CommandMeta } from '../domain/command.ts';
import type { Accepted, Identity } from '../domain/forum.ts';
import type { Executed, Idempotency } from '../domain/handle.ts';

export function commandMeta(req: Request, principal: Principal, now: Date): CommandMeta {
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
  const key = req.get(HEADER_IDEMPOTENCY_KEY);
  if (key === undefined) return undefined;
  if (!KEY.test(key)) throw new ValidationError({ [HEADER_IDEMPOTENCY_KEY]: ['Must be 1 to 255 visible ASCII characters'] });
  return {
    key: `${principal.subject}:${req.method} ${req.baseUrl}${req.path}:${key}`,
    fingerprint: createHash('sha256').update(JSON.stringify(req.body ?? null)).digest('base64url'),
  };
}

/** The claims a first registration records, from the verified token. */
export function identityOf(principal: Principal): Identity {
  return { userId: principal.subject, email: principal.email, name: principal.name, photoURL: principal.picture };
}

export function sendAccepted(res: Response, status: number, executed: Executed<Accepted>) {
  res.status(status);
  if (executed.answer.position) res.set(HEADER_EVENT_POSITION, executed.answer.position);
  if (executed.duplicate) res.set('Idempotent-Replayed', 'true');
  res.json(executed.answer);
}
