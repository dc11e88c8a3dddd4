import { ANONYMOUS_NAME, type UserEvent } from '@forum/contracts';
import { ConflictError, NotFoundError } from '@forum/platform';
import { unreachable, type CommandMeta } from '../command.ts';
import type { UserState } from './user.ts';

/**
 * Rules (issue "identity", item 5):
 * - the forum's record of a user starts with their first authenticated request, from the token's claims;
 * - emails listed in ADMIN_EMAILS are admins from that moment; roles are never taken from the token;
 * - a user changes their own display name and photo; there is no demotion of an admin.
 */
export type RegisterUser = {
  type: 'RegisterUser';
  data: { userId: string; email: string; name: string; photoURL: string; adminEmails: readonly string[] };
};
export type UpdateProfile = { type: 'UpdateProfile'; data: { displayName?: string; photoURL?: string } };
export type GrantAdmin = { type: 'GrantAdmin'; data: { reason: 'operator' | 'admin' | 'demo-data' } };
export type UserCommand = RegisterUser | UpdateProfile | GrantAdmin;

export class AlreadyRegisteredError extends ConflictError {
  constructor() {
    super('This user is already registered', 'ALREADY_REGISTERED');
  }
}

export function decide(command: UserCommand, state: UserState, meta: CommandMeta): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      return register(command, state, meta);
    case 'UpdateProfile':
      return updateProfile(command, state, meta);
    case 'GrantAdmin':
      return grantAdmin(command, state, meta);
    default:
      return unreachable(command);
  }
}

function register(command: RegisterUser, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'unknown') throw new AlreadyRegisteredError();
  const { userId, email, name, photoURL, adminEmails } = command.data;
  const at = meta.now.toISOString();
  const events: UserEvent[] = [
    { type: 'UserRegistered', data: { userId, email: email.toLowerCase(), name: name.trim() || ANONYMOUS_NAME, photoURL, registeredAt: at } },
  ];
  if (email !== '' && adminEmails.includes(email.toLowerCase())) {
    events.push({ type: 'AdminRoleGranted', data: { userId, reason: 'admin-emails', grantedAt: at } });
  }
  return events;
}

function updateProfile(command: UpdateProfile, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'registered') throw new NotFoundError('No such user');
  const name = command.data.displayName ?? state.name;
  const photoURL = command.data.photoURL ?? state.photoURL;
  if (name === state.name && photoURL === state.photoURL) return [];
  return [{ type: 'ProfileUpdated', data: { userId: state.userId, name, photoURL, updatedAt: meta.now.toISOString() } }];
}

function grantAdmin(command: GrantAdmin, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'registered') throw new NotFoundError('No such user');
  if (state.role === 'admin') return []; // making an admin admin again changes nothing
  return [{ type: 'AdminRoleGranted', data: { userId: state.userId, reason: command.data.reason, grantedAt: meta.now.toISOString() } }];
}
