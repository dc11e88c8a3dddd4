import { eventDefinitions, positionToken, type ForumEvent, type UserEvent } from '@forum/contracts';
import type { EventStore, NewEvent, StreamAppend } from '../eventstore/index.ts';
import { eventMetadata, type CommandMeta } from './command.ts';
import { execute, expectedVersionOf, load, positionOf, type Executed, type Idempotency } from './handle.ts';
import { decide as decidePost } from './post/decide.ts';
import { evolve as evolvePost, initialPostState, postStream } from './post/post.ts';
import { decide as decideTag } from './tag/decide.ts';
import { evolve as evolveTags, initialTagsState, TAGS_STREAM } from './tag/tag.ts';
import { decide as decideUser, type GrantAdmin } from './user/decide.ts';
import { evolve as evolveUser, initialUserState, userStream, type UserState } from './user/user.ts';

export interface Accepted {
  readonly id?: string;
  /** Absent when the command changed nothing (nothing to wait for). */
  readonly position?: string;
}

/** Who acts, as the identity provider vouches for it: the claims a first registration records. */
export interface Identity {
  readonly userId: string;
  readonly email: string;
  readonly name: string;
  readonly photoURL: string;
}

export interface ForumCommandsOptions {
  /** Emails that are admins from their first sign-in (lower case). */
  readonly adminEmails: readonly string[];
}

function toNewEvents(events: readonly ForumEvent[], meta: CommandMeta): NewEvent[] {
  return events.map((event) => ({
    type: event.type,
    data: event.data,
    metadata: eventMetadata(meta, eventDefinitions[event.type].schemaVersion),
  }));
}

/**
 * The forum's command side: each method loads the streams a rule needs,
 * decides, and appends. The actor's own stream comes first: a subject the
 * forum has not seen yet is registered in the same atomic append.
 */
export function createForumCommands(store: EventStore, options: ForumCommandsOptions = { adminEmails: [] }) {
  async function loadActor(who: Identity, meta: CommandMeta) {
    const loaded = await load(store, userStream(who.userId), evolveUser, initialUserState);
    if (loaded.state.status !== 'unknown') return { ...loaded, registration: [] as UserEvent[] };
    const registration = decideUser({ type: 'RegisterUser', data: { ...who, adminEmails: options.adminEmails } }, loaded.state, meta);
    return { state: registration.reduce(evolveUser, loaded.state), version: loaded.version, position: loaded.position, registration };
  }

  function actorAppend(who: Identity, actor: { version: number; registration: readonly UserEvent[] }, events: readonly UserEvent[], meta: CommandMeta): StreamAppend[] {
    const all = [...actor.registration, ...events];
    return all.length === 0 ? [] : [{ streamId: userStream(who.userId), expectedVersion: expectedVersionOf(actor.version), events: toNewEvents(all, meta) }];
  }

  return {
    /**
     * Records a subject's first authenticated request. For a known subject it
     * appends nothing and answers the position of the record as it stands, so a
     * caller that lost a race to register still knows what to wait for.
     */
    registerUser(who: Identity, meta: CommandMeta): Promise<Executed<Accepted>> {
      return execute(store, async () => {
        const actor = await loadActor(who, meta);
        return {
          appends: actorAppend(who, actor, [], meta),
          answer: (result) => ({ id: who.userId, position: result ? positionOf(result) : positionToken(actor.position!) }),
        };
      });
    },

    updateProfile(who: Identity, input: { displayName?: string; photoURL?: string }, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const actor = await loadActor(who, meta);
          const events = decideUser({ type: 'UpdateProfile', data: input }, actor.state, meta);
          return { appends: actorAppend(who, actor, events, meta), answer: (result) => ({ id: who.userId, ...(result && { position: positionOf(result) }) }) };
        },
        idempotency,
      );
    },

    grantAdmin(userId: string, reason: GrantAdmin['data']['reason'], meta: CommandMeta): Promise<Executed<Accepted>> {
      return execute(store, async () => {
        const user = await load(store, userStream(userId), evolveUser, initialUserState);
        const events = decideUser({ type: 'GrantAdmin', data: { reason } }, user.state, meta);
        return {
          appends: events.length === 0 ? [] : [{ streamId: userStream(userId), expectedVersion: expectedVersionOf(user.version), events: toNewEvents(events, meta) }],
          answer: (result) => ({ id: userId, ...(result && { position: positionOf(result) }) }),
        };
      });
    },

    createPost(
      who: Identity,
      input: { postId: string; title: string; description: string; tags: readonly string[] },
      meta: CommandMeta,
      idempotency?: Idempotency,
    ): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const [actor, post, tags] = await Promise.all([
            loadActor(who, meta),
            load(store, postStream(input.postId), evolvePost, initialPostState),
            load(store, TAGS_STREAM, evolveTags, initialTagsState),
          ]);
          const author = registered(actor.state);
          const events = decidePost(
            { type: 'CreatePost', data: { ...input, author: { id: author.userId, name: author.name, email: author.email, photo: author.photoURL } } },
            post.state,
            { tags: tags.state },
            meta,
          );
          return {
            appends: [
              ...actorAppend(who, actor, [], meta),
              { streamId: postStream(input.postId), expectedVersion: expectedVersionOf(post.version), events: toNewEvents(events, meta) },
            ],
            answer: (result) => ({ id: input.postId, position: positionOf(result!) }),
          };
        },
        idempotency,
      );
    },

    createTag(input: { tagId: string; name: string }, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const tags = await load(store, TAGS_STREAM, evolveTags, initialTagsState);
          const events = decideTag({ type: 'CreateTag', data: input }, tags.state, meta);
          return {
            appends: [{ streamId: TAGS_STREAM, expectedVersion: expectedVersionOf(tags.version), events: toNewEvents(events, meta) }],
            answer: (result) => ({ id: input.tagId, position: positionOf(result!) }),
          };
        },
        idempotency,
      );
    },
  };
}

function registered(state: UserState) {
  if (state.status !== 'registered') throw new Error('the actor is registered by loadActor');
  return state;
}

export type ForumCommands = ReturnType<typeof createForumCommands>;
