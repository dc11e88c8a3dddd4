import { eventDefinitions, type ForumEvent } from '@forum/contracts';
import type { EventStore, NewEvent } from '../eventstore/index.ts';
import { eventMetadata, type CommandMeta } from './command.ts';
import { execute, expectedVersionOf, load, positionOf, type Executed, type Idempotency } from './handle.ts';
import { decide as decidePost, type Author } from './post/decide.ts';
import { evolve as evolvePost, initialPostState, postStream } from './post/post.ts';
import { decide as decideTag } from './tag/decide.ts';
import { evolve as evolveTags, initialTagsState, TAGS_STREAM } from './tag/tag.ts';

export interface Accepted {
  readonly id?: string;
  readonly position: string;
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
 * decides, and appends. `Answer` extends what is stored for idempotent retries.
 */
export function createForumCommands(store: EventStore) {
  return {
    createPost(
      input: { postId: string; title: string; description: string; tags: readonly string[]; author: Author },
      meta: CommandMeta,
      idempotency?: Idempotency,
    ): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const [post, tags] = await Promise.all([
            load(store, postStream(input.postId), evolvePost, initialPostState),
            load(store, TAGS_STREAM, evolveTags, initialTagsState),
          ]);
          const events = decidePost({ type: 'CreatePost', data: input }, post.state, { tags: tags.state }, meta);
          return {
            appends: [{ streamId: postStream(input.postId), expectedVersion: expectedVersionOf(post.version), events: toNewEvents(events, meta) }],
            answer: (result) => ({ id: input.postId, position: positionOf(result) }),
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
            answer: (result) => ({ id: input.tagId, position: positionOf(result) }),
          };
        },
        idempotency,
      );
    },
  };
}

export type ForumCommands = ReturnType<typeof createForumCommands>;
