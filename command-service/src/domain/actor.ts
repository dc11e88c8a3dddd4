import { ErrorCode, isStaffRole, type Role, type SuspensionDetails } from '@forum/contracts';
import type { Author } from './post/decide.ts';
import type { Editor } from './revision.ts';
import { AccountClosed, DomainError, Forbidden } from './errors.ts';
import type { Acting } from './staff.ts';
import { isDisabled, suspensionAt, type UserState } from './user/user.ts';

/** Who acts, as the identity provider vouches for it: the claims a first registration records. */
export interface Identity {
  readonly userId: string;
  readonly email: string;
  /** The issuer vouches that the user owns `email` (the token's email_verified); absent: it does not. */
  readonly emailVerified?: boolean;
  readonly name: string;
  readonly photoURL: string;
  /** The handle the member chose in the realm (the token's `handle` claim), if any: taken at registration when valid and free. */
  readonly handle?: string;
}

export type RegisteredUser = Extract<UserState, { status: 'registered' }>;

/**
 * The denylist on the write side: a disabled or erased account's token is
 * refused before anything is decided, from the actor's own stream that every command reads anyway.
 */
export function refuseClosedAccount(state: UserState): void {
  if (state.status === 'erased') throw new AccountClosed('erased');
  if (isDisabled(state)) throw new AccountClosed('disabled');
}

/** The actor as the command handler gives it: always registered (a new subject is registered by its read). */
export function registered(state: UserState): RegisteredUser {
  if (state.status !== 'registered') throw new Error('the actor is registered by the command handler');
  return state;
}

/**
 * The admin role is the forum's fact on the actor's own stream (never the token's). No demotion
 * exists, so a role read at the start of a command cannot be taken away before its append.
 */
export function requireAdmin(actor: RegisteredUser): void {
  if (actor.role !== 'admin') throw new Forbidden('You must be an admin to do this');
}

/**
 * Staff (a moderator or an admin), from the actor's own stream. A revocation appended after the
 * command read the role conflicts with nothing it appends: the command is decided on the role as read.
 */
export function requireStaff(actor: RegisteredUser): void {
  if (!isStaffRole(actor.role)) throw new Forbidden('You must be a moderator or an admin to do this');
}

export const actingOf = (user: RegisteredUser): Acting => ({ id: user.userId, role: user.role });

/** The role a member's stream gives them (a member the forum does not know, or erased: a member). */
export const roleOf = (state: UserState): Role => (state.status === 'registered' ? state.role : 'user');

/** A write by a suspended member (403 MEMBER_SUSPENDED), with why and until when. */
export class MemberSuspendedError extends DomainError {
  readonly kind = 'forbidden';
  constructor(details: SuspensionDetails) {
    const end = details.until === null ? 'until a moderator lifts it' : `until ${details.until}`;
    super(ErrorCode.MEMBER_SUSPENDED, `Your account is suspended ${end}: ${details.reason}`, details);
  }
}

/**
 * A suspended member writes nothing (posts, comments, votes, reports, their profile): refused
 * before anything is decided, from their own stream and the command's clock (no job ends a
 * suspension: it is over once the clock passes `until`).
 */
export function refuseSuspended(state: UserState, now: Date): void {
  const suspension = suspensionAt(state, now);
  if (suspension) throw new MemberSuspendedError({ reason: suspension.reason, until: suspension.until });
}

/** The actor as the author of what they write (posts, comments, reports, announcements): their forum record now. */
export const authorOf = (user: RegisteredUser): Author => ({ id: user.userId, name: user.name, email: user.email, photo: user.photoURL });

/** The actor as the editor of a post or comment: staff when they hold the forum's moderator or admin role. */
export const editorOf = (user: RegisteredUser): Editor => ({ id: user.userId, isStaff: isStaffRole(user.role) });
