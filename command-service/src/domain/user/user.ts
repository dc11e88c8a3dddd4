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
    };

export const initialUserState: UserState = { status: 'unknown' };

export function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return { status: 'registered', userId: event.data.userId, email: event.data.email, name: event.data.name, photoURL: event.data.photoURL, role: 'user' };
    case 'ProfileUpdated':
      return state.status === 'registered' ? { ...state, name: event.data.name, photoURL: event.data.photoURL } : state;
    case 'AdminRoleGranted':
      return state.status === 'registered' ? { ...state, role: 'admin' } : state;
    default:
      return unreachable(event);
  }
}
