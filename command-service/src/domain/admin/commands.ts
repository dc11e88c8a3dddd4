import type { UserEvent } from '@forum/contracts';
import { Forbidden } from '../errors.ts';
import type { EventStore, StreamAppend } from '@forum/eventstore';
import { acceptedAs, appendTo, authorOf, registered, type Accepted, type Actor, type Actors, type Identity } from '../actor.ts';
import { decide as decideAnnouncement } from '../announcement/decide.ts';
import { announcementStream, evolve as evolveAnnouncement, initialAnnouncementState } from '../announcement/announcement.ts';
import type { CommandMeta } from '../command.ts';
import { decide as decideContact } from '../contact/decide.ts';
import { contactMessageStream, evolve as evolveContact, initialContactMessageState } from '../contact/contact.ts';
import { execute, load, positionOf, type Executed, type Idempotency } from '../handle.ts';
import type { Costs } from '../limits.ts';
import { evolve as evolveProjection, initialProjectionState, projectionStream, recordRebuild } from '../operations/projection.ts';
import { decide as decideTag } from '../tag/decide.ts';
import { evolve as evolveTags, initialTagsState, TAGS_STREAM } from '../tag/tag.ts';
import { decide as decideUser } from '../user/decide.ts';
import { evolve as evolveUser, initialUserState, userStream } from '../user/user.ts';

export interface TagAddedAnswer extends Accepted {
  readonly success: true;
  readonly id: string;
  readonly tag: { readonly _id: string; readonly name: string };
  readonly position: string;
}

export interface TagRemovedAnswer extends Accepted {
  readonly success: true;
  readonly id: string;
  readonly position: string;
}

/**
 * The admin role is the forum's fact on the actor's own stream (never the
 * token's). No demotion exists, so a role read at the start of a command
 * cannot be taken away before its append.
 */
function requireAdmin(actor: Actor): void {
  if (registered(actor.state).role !== 'admin') throw new Forbidden('You must be an admin to do this');
}

/**
 * The admin area's commands (tags, make admin, announcements) and the Contact
 * page's message. Every admin action's events carry the acting admin in their
 * metadata (`actorId`), which is what the staff action log lists.
 */
export function createAdminCommands(store: EventStore, actors: Actors, cost: Costs) {
  return {
    /** 'Add Tag' (POST /api/admin/tags). The tags stream decides uniqueness, so two admins adding one name at once get one tag and one 409. */
    addTag(who: Identity, input: { tagId: string; name: string }, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<TagAddedAnswer>> {
      return execute(
        store,
        async () => {
          const [actor, tags] = await Promise.all([actors.load(who, meta), load(store, TAGS_STREAM, evolveTags, initialTagsState)]);
          requireAdmin(actor);
          const events = decideTag({ type: 'CreateTag', data: input }, tags.state, meta);
          const name = events[0]!.data.name;
          return {
            appends: [
              ...actors.append(who, actor, [], meta),
              ...appendTo(TAGS_STREAM, tags, events, meta),
            ],
            answer: (result) => ({ success: true, id: input.tagId, tag: { _id: input.tagId, name }, position: positionOf(result!) }),
          };
        },
        idempotency,
      );
    },

    /** DELETE /api/admin/tags/:id: posts keep their tag text; the name is free again. */
    deleteTag(who: Identity, tagId: string, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<TagRemovedAnswer>> {
      return execute(
        store,
        async () => {
          const [actor, tags] = await Promise.all([actors.load(who, meta), load(store, TAGS_STREAM, evolveTags, initialTagsState)]);
          requireAdmin(actor);
          const events = decideTag({ type: 'DeleteTag', data: { tagId } }, tags.state, meta);
          return {
            appends: [
              ...actors.append(who, actor, [], meta),
              ...appendTo(TAGS_STREAM, tags, events, meta),
            ],
            answer: (result) => ({ success: true, id: tagId, position: positionOf(result!) }),
          };
        },
        idempotency,
      );
    },

    /**
     * 'Make Admin' (PATCH /api/admin/users/make-admin/:userId). Decided on the
     * user's stream: making an admin admin again appends nothing and answers
     * without a position; there is no demotion.
     */
    makeAdmin(who: Identity, userId: string, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const actor = await actors.load(who, meta);
          requireAdmin(actor);
          const self = userId === who.userId;
          const user = self ? actor : await load(store, userStream(userId), evolveUser, initialUserState);
          const events: UserEvent[] = decideUser({ type: 'GrantAdmin', data: { reason: 'admin' } }, user.state, meta);
          const appends: StreamAppend[] = self
            ? actors.append(who, actor, events, meta)
            : [
                ...actors.append(who, actor, [], meta),
                ...appendTo(userStream(userId), user, events, meta),
              ];
          return { appends, answer: acceptedAs(userId) };
        },
        idempotency,
      );
    },

    /** 'Post Announcement' (POST /api/admin/announcements): the author is the admin's forum record. */
    publishAnnouncement(
      who: Identity,
      input: { announcementId: string; title: string; description: string },
      meta: CommandMeta,
      idempotency?: Idempotency,
    ): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const [actor, announcement] = await Promise.all([
            actors.load(who, meta),
            load(store, announcementStream(input.announcementId), evolveAnnouncement, initialAnnouncementState),
          ]);
          requireAdmin(actor);
          const events = decideAnnouncement(
            { type: 'PublishAnnouncement', data: { ...input, author: authorOf(registered(actor.state)) } },
            announcement.state,
            meta,
          );
          return {
            appends: [
              ...actors.append(who, actor, [], meta),
              ...appendTo(announcementStream(input.announcementId), announcement, events, meta),
            ],
            answer: acceptedAs(input.announcementId),
          };
        },
        idempotency,
      );
    },

    /**
     * Records a projection rebuild the runner accepted (POST /api/admin/projections/:name/rebuild
     * after its request, or `forumctl rebuild` with `who` 'operator' and the operator in `meta`), for
     * the staff action log. An admin is checked like every admin action; the route checks first too,
     * so that a non-admin starts nothing.
     */
    recordRebuildRequest(
      who: Identity | 'operator',
      build: { projection: string; version: number; build: number; resumed: boolean },
      meta: CommandMeta,
    ): Promise<Executed<Accepted>> {
      return execute(store, async () => {
        const [actor, projection] = await Promise.all([
          who === 'operator' ? null : actors.load(who, meta),
          load(store, projectionStream(build.projection), evolveProjection, initialProjectionState),
        ]);
        if (actor) requireAdmin(actor);
        return {
          appends: [
            ...(actor && who !== 'operator' ? actors.append(who, actor, [], meta) : []),
            ...appendTo(projectionStream(build.projection), projection, recordRebuild(build, meta), meta),
          ],
          answer: acceptedAs(build.projection),
        };
      });
    },

    /**
     * The Contact page (POST /api/contact): anyone, no token needed, so there is
     * no actor stream to load. The command's cost is counted per `sender`, the client's
     * address (anyone may write, signed in or not).
     */
    receiveContactMessage(input: { messageId: string; name: string; email: string; message: string }, meta: CommandMeta, sender: string): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const message = await load(store, contactMessageStream(input.messageId), evolveContact, initialContactMessageState);
          const events = decideContact({ type: 'ReceiveContactMessage', data: input }, message.state, meta);
          return {
            appends: appendTo(contactMessageStream(input.messageId), message, events, meta),
            answer: acceptedAs(input.messageId),
          };
        },
        undefined,
        cost('contact', sender),
      );
    },
  };
}

export type AdminCommands = ReturnType<typeof createAdminCommands>;
