import { AccountDisabledError, isVerifiedAdminEmail, registeredAs, type Principal } from '@forum/platform';
import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../store/users.ts';
import type { ViewerCache } from './viewer-cache.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's forum record (role and membership are the forum's facts, not the token's); undefined for visitors. */
    viewer?: UserRow;
  }
}

/**
 * A member the forum has not registered yet, as their registration would record them (platform's
 * `registeredAs`, the write side's own rule): the read side answers them from their token and
 * starts no command. They are registered by their first command, or by the apps' call of
 * POST /api/me/registration after sign-in; until then `registeredAt` is the time of the read.
 */
function unregistered(principal: Principal, adminEmails: ReadonlySet<string>, now: Date): UserRow {
  const member = registeredAs(
    { email: principal.email, emailVerified: principal.emailVerified, name: principal.name, photoURL: principal.picture },
    adminEmails,
  );
  return {
    id: principal.subject,
    email: member.email,
    name: member.name,
    photo_url: member.photoURL,
    handle: null,
    role: member.role,
    is_member: false,
    registered_at: now,
    suspended: false,
    suspension_reason: null,
    suspended_until: null,
  };
}

/**
 * For a caller with a token: their forum record, or, before their registration, the record it would
 * make (see `unregistered`). A member whose token now vouches for an address of ADMIN_EMAILS is
 * answered as the admin their next command or registration call makes them (the write side's
 * GrantAdminByEmail); everyone else pays a set lookup.
 *
 * A disabled or erased account's token is refused here, on every read: the denial
 * comes with the record, in the same statement, kept with it (see ViewerCache).
 */
export function viewer(records: ViewerCache, adminEmails: readonly string[] = [], clock: () => Date = () => new Date()) {
  const listed: ReadonlySet<string> = new Set(adminEmails);
  return async (request: FastifyRequest): Promise<void> => {
    const principal = request.principal;
    if (!principal) return;
    const found = await records.read(principal.subject);
    if (found.denied) throw new AccountDisabledError(found.denied);
    const row = found.row;
    if (!row) {
      request.viewer = unregistered(principal, listed, clock());
      return;
    }
    const becomesAdmin = row.role !== 'admin' && isVerifiedAdminEmail(principal.email, principal.emailVerified, listed);
    request.viewer = becomesAdmin ? { ...row, role: 'admin' } : row;
  };
}
