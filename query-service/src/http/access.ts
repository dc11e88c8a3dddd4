import { ForbiddenError, NotFoundError, UnauthenticatedError } from '@forum/platform';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { UserRow, UsersStore } from '../store/users.ts';

/**
 * Who may read what on the query side. Roles are the forum's facts (the
 * caller's forum record, `request.viewer`), never the token's.
 */

/** The caller's forum record; 401 without a token. */
export function signedIn(request: FastifyRequest): UserRow {
  const viewer = request.viewer;
  if (!viewer) throw new UnauthenticatedError();
  return viewer;
}

/** A read for signed-in members, before its input is checked: 401 without a token. */
export const signedInOnly = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
  signedIn(request);
  done();
};

/** The caller's forum record when it has the admin role; 401 without a token, 403 otherwise. */
export function adminOf(request: FastifyRequest): UserRow {
  const viewer = signedIn(request);
  if (viewer.role !== 'admin') throw new ForbiddenError('You must be an admin to access this page');
  return viewer;
}

/** Every /api/admin/* read, before its input is checked: 401 without a token, 403 FORBIDDEN for anyone but an admin. */
export const adminOnly = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
  adminOf(request);
  done();
};

/** Emails are shown only to their owner and to admins. */
export const maySeeEmail = (viewer: UserRow | undefined, ownerId: string) => viewer !== undefined && (viewer.id === ownerId || viewer.role === 'admin');

/**
 * The user an `:email` path names, when the caller may see it: their own
 * email, or any email for an admin (404 when there is no such user). Who may
 * ask is decided before whether the user exists.
 */
export async function ownerOrAdmin(users: UsersStore, request: FastifyRequest, email: string, denied: string): Promise<UserRow> {
  const viewer = signedIn(request);
  if (viewer.email === email) return viewer;
  if (viewer.role !== 'admin') throw new ForbiddenError(denied);
  const user = await users.byEmail(email);
  if (!user) throw new NotFoundError('No such user');
  return user;
}
