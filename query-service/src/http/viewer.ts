import { ErrorBody } from '@forum/contracts';
import { AccountDisabledError, AppError, correlationIdOf, isVerifiedAdminEmail, UnavailableError, type Principal } from '@forum/platform';
import type { FastifyRequest } from 'fastify';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';
import type { UserRow } from '../store/users.ts';
import type { ViewerCache } from './viewer-cache.ts';

/**
 * Asks the write side to record a subject's first authenticated request.
 * Answers the position of the registration's events, or null when the
 * subject was known already.
 */
export type Registrar = (call: { principal: Principal; authorization: string; correlationId: string; requestId: string }) => Promise<string | null>;

/** The registrar of the distributed layout: command-service's POST /api/me/registration, with the caller's token. */
export function httpRegistrar(commandServiceUrl: string): Registrar {
  const url = new URL('/api/me/registration', commandServiceUrl).href;
  return async ({ authorization, correlationId, requestId }) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { Authorization: authorization, 'X-Correlation-Id': correlationId, 'X-Request-Id': requestId },
      signal: AbortSignal.timeout(5000),
    });
    // a refused account (disabled or erased) is the caller's 401, not the service's failure
    if (response.status === 401) {
      const body = ErrorBody.safeParse(await response.json().catch(() => null));
      if (body.success) throw new AppError(401, body.data.error.code, body.data.error.message);
    }
    if (!response.ok) throw new UnavailableError(`Registration failed with ${response.status}`);
    return ((await response.json()) as { position?: string }).position ?? null;
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's forum record (role and membership are the forum's facts, not the token's); undefined for visitors. */
    viewer?: UserRow;
  }
}

/**
 * For a caller with a token: their forum record, registering them first if
 * this is their first authenticated request (then waiting until it is readable).
 * A member whose token vouches for an address of ADMIN_EMAILS (verified since
 * they registered) goes to the registrar too, which makes them admin: one more
 * call for that user, once; everyone else pays a set lookup.
 *
 * A disabled or erased account's token is refused here, on every read: the denial
 * comes with the record, in the same statement, kept with it (see ViewerCache).
 */
export function viewer(records: ViewerCache, registrar: Registrar, watcher: CheckpointWatcher, maxWaitMs: number, adminEmails: readonly string[] = []) {
  const listed = new Set(adminEmails);
  return async (request: FastifyRequest): Promise<void> => {
    const principal = request.principal;
    if (!principal) return;
    const found = await records.read(principal.subject);
    if (found.denied) throw new AccountDisabledError(found.denied);
    let row = found.row;
    const becomesAdmin = row !== null && row.role !== 'admin' && isVerifiedAdminEmail(principal.email, principal.emailVerified, listed);
    if (!row || becomesAdmin) {
      const position = await registrar({
        principal,
        authorization: request.headers.authorization!,
        correlationId: correlationIdOf(request.raw),
        requestId: request.id,
      });
      await watcher.waitForToken(position, maxWaitMs);
      row = (await records.read(principal.subject, true)).row;
      if (!row) throw new UnavailableError('Your account is being set up; try again in a moment');
    }
    request.viewer = row;
  };
}
