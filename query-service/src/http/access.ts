import { isStaffRole } from '@forum/contracts';
import { ForbiddenError, NotFoundError, UnauthenticatedError, type ErrorCodeName } from '@forum/platform';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
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

/** The caller's forum record when they are staff (a moderator or an admin); 401 without a token, 403 otherwise. */
export function staffOf(request: FastifyRequest): UserRow {
  const viewer = signedIn(request);
  if (!isStaffRole(viewer.role)) throw new ForbiddenError('You must be a moderator or an admin to access this page');
  return viewer;
}

/** The reads staff share (issue #43: the queue, the users list, the staff log, histories), before their input is checked: 401, 403 FORBIDDEN for members. */
export const staffOnly = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
  staffOf(request);
  done();
};

/** What a route's guard answers (for the API document): 401 without a token; 403 FORBIDDEN for a caller without the role. */
export function guardErrors(route: RouteOptions): readonly ErrorCodeName[] {
  const guards: unknown[] = [route.preValidation].flat();
  if (guards.includes(adminOnly) || guards.includes(staffOnly)) return ['UNAUTHENTICATED', 'FORBIDDEN'];
  return guards.includes(signedInOnly) ? ['UNAUTHENTICATED'] : [];
}

/** Whether the caller is staff, who see hidden posts and comments with their mark (issue #43). */
export const isStaff = (viewer: UserRow | undefined): boolean => viewer !== undefined && isStaffRole(viewer.role);

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
