import { userStream, type Role, type UserEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

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
    }
  /** Erased (AccountErased): nothing of them is kept, and nothing is decided on the stream again. */
  | { readonly status: 'erased' };

export const initialUserState: UserState = { status: 'unknown' };

/** The identity realm disabled the account (registered or not yet seen); an erased account is gone, not disabled. */
export const isDisabled = (state: UserState): boolean =>
  state.status === 'registered' ? state.disabled : state.status === 'unknown' && state.disabled === true;

export function evolve(state: UserState, event: UserEvent): UserState {
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
      };
    case 'ProfileUpdated':
      // v2 names only the changed fields (a v1 event arrives upcast with both)
      return state.status === 'registered'
        ? { ...state, name: event.data.changes.name ?? state.name, photoURL: event.data.changes.photoURL ?? state.photoURL }
        : state;
    case 'AdminRoleGranted':
      return state.status === 'registered' ? { ...state, role: 'admin' } : state;
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
export const userStreamOf = (userId: string): Stream<UserState, UserEvent> => ({ id: userStream(userId), evolve, initialState: initialUserState });
