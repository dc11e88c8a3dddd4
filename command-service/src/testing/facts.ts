import { DEFAULT_WARNING_REASON, eventDefinitions, notificationsStream, TAGS_STREAM, userStream, type ForumEvent } from '@forum/contracts';
import type { EventStore } from '@forum/eventstore';
import { testEventMetadata } from '@forum/platform/testing';
import { newId } from '../ids.ts';
import type { Member } from './callers.ts';

/** Events of one stream that a route test's `given` appends through the port, caused by `actorId`. */
export interface Fact {
  readonly streamId: string;
  readonly actorId: string;
  readonly events: readonly ForumEvent[];
}

const now = () => new Date().toISOString();

/** The member's forum record begins (as their first request would begin it). */
export const registered = (who: Member): Fact => ({
  streamId: userStream(who.id),
  actorId: who.id,
  events: [{ type: 'UserRegistered', data: { userId: who.id, email: who.email, name: who.name, photoURL: who.photo, registeredAt: now() } }],
});

/** An operator made the member admin (`forumctl make-admin`). */
export const madeAdmin = (who: Member): Fact => ({
  streamId: userStream(who.id),
  actorId: 'operator',
  events: [{ type: 'AdminRoleGranted', data: { userId: who.id, reason: 'operator', grantedAt: now() } }],
});

/** A member who is an admin of the forum: registered, then made admin. */
export const anAdmin = (who: Member): Fact[] => [registered(who), madeAdmin(who)];

/** A member an admin (`by`) made a moderator. */
export const aModerator = (who: Member, by = 'operator'): Fact[] => [
  registered(who),
  { streamId: userStream(who.id), actorId: by, events: [{ type: 'ModeratorRoleGranted', data: { userId: who.id, grantedBy: by, grantedAt: now() } }] },
];

/** A tag admins created, with its id. */
export const tagCreated = (name: string, tagId = newId()): Fact => ({
  streamId: TAGS_STREAM,
  actorId: 'operator',
  events: [{ type: 'TagCreated', data: { tagId, name, createdAt: now() } }],
});

/** The identity realm disabled the member's account (registered or not yet seen). */
export const accountDisabled = (who: Member): Fact => ({
  streamId: userStream(who.id),
  actorId: 'realm-admin',
  events: [{ type: 'AccountDisabled', data: { userId: who.id, disabledAt: now() } }],
});

/** An admin (`by`) warned the member, without naming a comment. */
export const warned = (who: Member, by: Member, warningId = newId(), reason = DEFAULT_WARNING_REASON): Fact => ({
  streamId: notificationsStream(who.id),
  actorId: by.id,
  events: [{ type: 'UserWarned', data: { warningId, userId: who.id, reason, warnedBy: by.id, warnedAt: now() } }],
});

/** Appends `fact` as the forum would: its events at their current schema version, with the actor in their metadata. */
export async function appendFact(store: EventStore, fact: Fact): Promise<void> {
  await store.append([
    {
      streamId: fact.streamId,
      expectedVersion: 'any',
      events: fact.events.map((event) => ({
        type: event.type,
        data: event.data,
        metadata: testEventMetadata({ actorId: fact.actorId, schemaVersion: eventDefinitions[event.type].schemaVersion }),
      })),
    },
  ]);
}
