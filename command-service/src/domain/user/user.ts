import { userStream, type ModeratorRoleEvent, type Role, type SuspensionEvent, type UserEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

/** The events of a member's stream: their record, and the moderator role and suspensions staff give them (issue #43). */
export type UserStreamEvent = UserEvent | ModeratorRoleEvent | SuspensionEvent;

/** A suspension staff gave: why, and until when (null: until lifted). It is in force while `until` is after the clock. */
export interface Suspension {
  readonly reason: string;
  readonly until: string | null;
}

export type UserState =
  /** `disabled`: the identity realm disabled the account before the forum saw it. */
  | { readonly status: 'unknown'; readonly disabled?: true }
  | {
      readonly status: 'registered';
      /** The identity realm disabled the account: its tokens are refused (AccountDisabled, until AccountEnabled). */
      readonly disabled: boolean;
      readonly userId: string;
      readonly email: string;
      readonly name: string;
      readonly photoURL: string;
      /** The handle @mentions use (HandleChanged); null until the forum gives them one. */
      readonly handle: string | null;
      readonly role: Role;
      readonly isMember: boolean;
      /** Posts of theirs that are not deleted: what the free limit counts. */
      readonly livePosts: ReadonlySet<string>;
      /** A membership purchase that has started and not yet ended. */
      readonly pendingPurchase: { readonly attemptId: string; readonly startedAt: string } | null;
      /** The last suspension given and not lifted (it may have ended by the clock: see suspensionAt). */
      readonly suspension: Suspension | null;
    }
  /** Erased (AccountErased): nothing of them is kept, and nothing is decided on the stream again. */
  | { readonly status: 'erased' };

export const initialUserState: UserState = { status: 'unknown' };

/** The identity realm disabled the account (registered or not yet seen); an erased account is gone, not disabled. */
export const isDisabled = (state: UserState): boolean =>
  state.status === 'registered' ? state.disabled : state.status === 'unknown' && state.disabled === true;

/** The member's suspension in force at `now`, or null (one that ended by the clock needs no event). */
export function suspensionAt(state: UserState, now: Date): Suspension | null {
  if (state.status !== 'registered' || state.suspension === null) return null;
  const { until } = state.suspension;
  return until === null || Date.parse(until) > now.getTime() ? state.suspension : null;
}

export function evolve(state: UserState, event: UserStreamEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        status: 'registered',
        disabled: state.status === 'unknown' && state.disabled === true,
        userId: event.data.userId,
        email: event.data.email,
        name: event.data.name,
        photoURL: event.data.photoURL,
        handle: null,
        role: 'user',
        isMember: false,
        livePosts: new Set(),
        pendingPurchase: null,
        suspension: null,
      };
    case 'ProfileUpdated':
      // v2 names only the changed fields (a v1 event arrives upcast with both)
      return state.status === 'registered'
        ? { ...state, name: event.data.changes.name ?? state.name, photoURL: event.data.changes.photoURL ?? state.photoURL }
        : state;
    case 'AdminRoleGranted':
      return state.status === 'registered' ? { ...state, role: 'admin' } : state;
    // an admin is never made a moderator, nor taken back to member (the decider refuses both)
    case 'ModeratorRoleGranted':
      return state.status === 'registered' && state.role === 'user' ? { ...state, role: 'moderator' } : state;
    case 'ModeratorRoleRevoked':
      return state.status === 'registered' && state.role === 'moderator' ? { ...state, role: 'user' } : state;
    case 'MemberSuspended':
      return state.status === 'registered' ? { ...state, suspension: { reason: event.data.reason, until: event.data.until } } : state;
    case 'SuspensionLifted':
      return state.status === 'registered' ? { ...state, suspension: null } : state;
    case 'PostAuthored':
      return state.status === 'registered' ? { ...state, livePosts: new Set(state.livePosts).add(event.data.postId) } : state;
    case 'AuthoredPostRemoved': {
      if (state.status !== 'registered') return state;
      const livePosts = new Set(state.livePosts);
      livePosts.delete(event.data.postId);
      return { ...state, livePosts };
    }
    case 'MembershipPurchaseStarted':
      return state.status === 'registered' ? { ...state, pendingPurchase: { attemptId: event.data.attemptId, startedAt: event.data.startedAt } } : state;
    case 'MembershipPurchased':
      return state.status === 'registered' ? { ...state, isMember: true, pendingPurchase: null } : state;
    case 'MembershipPurchaseFailed':
      return state.status === 'registered' ? { ...state, pendingPurchase: null } : state;
    case 'AccountDisabled':
      if (state.status === 'erased') return state;
      return state.status === 'registered' ? { ...state, disabled: true } : { status: 'unknown', disabled: true };
    case 'AccountEnabled':
      if (state.status === 'erased') return state;
      return state.status === 'registered' ? { ...state, disabled: false } : { status: 'unknown' };
    case 'AccountErased':
      return { status: 'erased' };
    case 'HandleChanged':
      return state.status === 'registered' ? { ...state, handle: event.data.handle } : state;
    default:
      return unreachable(event);
  }
}

/** A user's stream, as the command handler reads it. */
export const userStreamOf = (userId: string): Stream<UserState, UserStreamEvent> => ({ id: userStream(userId), evolve, initialState: initialUserState });
