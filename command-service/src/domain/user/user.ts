import { userStream, type Role, type UserEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';

export { userStream };

export type UserState =
  | { readonly status: 'unknown' }
  | {
      readonly status: 'registered';
      readonly userId: string;
      readonly email: string;
      readonly name: string;
      readonly photoURL: string;
      readonly role: Role;
      readonly isMember: boolean;
      /** Posts of theirs that are not deleted: what the free limit counts. */
      readonly livePosts: ReadonlySet<string>;
      /** A membership purchase that has started and not yet ended. */
      readonly pendingPurchase: { readonly attemptId: string; readonly startedAt: string } | null;
    };

export const initialUserState: UserState = { status: 'unknown' };

export function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        status: 'registered',
        userId: event.data.userId,
        email: event.data.email,
        name: event.data.name,
        photoURL: event.data.photoURL,
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
    default:
      return unreachable(event);
  }
}
