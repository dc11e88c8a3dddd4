import { eventDefinitions, type ForumEvent, type UserEvent } from '@forum/contracts';
import { AccountClosed } from './errors.ts';
import type { AppendResult, EventStore, NewEvent, StreamAppend } from '@forum/eventstore';
import { eventMetadata, type CommandMeta } from './command.ts';
import { expectedVersionOf, load, positionOf } from './handle.ts';
import type { Author } from './post/decide.ts';
import { decide as decideUser, type UserCommand } from './user/decide.ts';
import { evolve as evolveUser, initialUserState, isDisabled, userStream, type UserState } from './user/user.ts';

/** What a command answers: the id it concerns and its last event's position (absent when nothing changed). */
export interface Accepted {
  readonly id?: string;
  readonly position?: string;
}

/** The answer of a command about `id`: its last event's position, or none when it appended nothing. */
export const acceptedAs =
  (id: string) =>
  (result: AppendResult | null): Accepted => ({ id, ...(result && { position: positionOf(result) }) });

/** Who acts, as the identity provider vouches for it: the claims a first registration records. */
export interface Identity {
  readonly userId: string;
  readonly email: string;
  /** The issuer vouches that the user owns `email` (the token's email_verified); absent: it does not. */
  readonly emailVerified?: boolean;
  readonly name: string;
  readonly photoURL: string;
}

function toNewEvents(events: readonly ForumEvent[], meta: CommandMeta): NewEvent[] {
  return events.map((event) => ({
    type: event.type,
    data: event.data,
    metadata: eventMetadata(meta, eventDefinitions[event.type].schemaVersion),
  }));
}

/** `events` for one stream at the version it was read at; nothing when there are no events. */
export function appendTo(streamId: string, read: { readonly version: number }, events: readonly ForumEvent[], meta: CommandMeta): StreamAppend[] {
  return events.length === 0 ? [] : [{ streamId, expectedVersion: expectedVersionOf(read.version), events: toNewEvents(events, meta) }];
}

export type Actor = Awaited<ReturnType<Actors['load']>>;
export type RegisteredUser = Extract<UserState, { status: 'registered' }>;

/**
 * The acting user's own stream. Every command loads it first: a subject the
 * forum has not seen yet is registered in the same atomic append as the
 * command's own events, and its role decides what it may do. A known subject
 * whose listed address (ADMIN_EMAILS) the token now vouches for is made admin
 * in that append the same way (`registration`: what the forum records of the
 * actor's arrival, before the command's own events). It costs a set lookup.
 */
export function createActors(store: EventStore, adminEmailList: readonly string[]) {
  const adminEmails: ReadonlySet<string> = new Set(adminEmailList);
  return {
    async load(who: Identity, meta: CommandMeta) {
      const loaded = await load(store, userStream(who.userId), evolveUser, initialUserState);
      refuseClosedAccount(loaded.state);
      const arrival: UserCommand =
        loaded.state.status === 'unknown'
          ? { type: 'RegisterUser', data: { ...who, adminEmails } }
          : { type: 'GrantAdminByEmail', data: { email: who.email, emailVerified: who.emailVerified ?? false, adminEmails } };
      const registration = decideUser(arrival, loaded.state, meta);
      if (registration.length === 0) return { ...loaded, registration };
      return { state: registration.reduce(evolveUser, loaded.state), version: loaded.version, position: loaded.position, registration };
    },

    /** The actor's registration (when new) and `events` on the actor's stream, at the version read. */
    append(who: Identity, actor: { version: number; registration: readonly UserEvent[] }, events: readonly UserEvent[], meta: CommandMeta): StreamAppend[] {
      return appendTo(userStream(who.userId), actor, [...actor.registration, ...events], meta);
    },
  };
}
export type Actors = ReturnType<typeof createActors>;

/**
 * The denylist on the write side: a disabled or erased account's token is
 * refused before anything is decided, from the actor's own stream that every command reads anyway.
 */
export function refuseClosedAccount(state: UserState): void {
  if (state.status === 'erased') throw new AccountClosed('erased');
  if (isDisabled(state)) throw new AccountClosed('disabled');
}

/** The actor after `Actors.load`: always registered (a new subject is registered by the load). */
export function registered(state: UserState): RegisteredUser {
  if (state.status !== 'registered') throw new Error('the actor is registered by Actors.load');
  return state;
}

/** The actor as the author of what they write (posts, comments, reports, announcements): their forum record now. */
export const authorOf = (user: RegisteredUser): Author => ({ id: user.userId, name: user.name, email: user.email, photo: user.photoURL });
