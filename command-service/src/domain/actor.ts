import type { Author } from './post/decide.ts';
import type { Editor } from './revision.ts';
import { AccountClosed, Forbidden } from './errors.ts';
import { isDisabled, type UserState } from './user/user.ts';

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

/** The actor as the author of what they write (posts, comments, reports, announcements): their forum record now. */
export const authorOf = (user: RegisteredUser): Author => ({ id: user.userId, name: user.name, email: user.email, photo: user.photoURL });

/** The actor as the editor of a post or comment: staff when they hold the forum's admin role. */
export const editorOf = (user: RegisteredUser): Editor => ({ id: user.userId, isAdmin: user.role === 'admin' });
