import type { Identity } from '../actor.ts';
import { requireAdmin } from '../actor.ts';
import { acceptedAs, positionOf, type Accepted, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Idempotency } from '../execute.ts';
import { decide } from './decide.ts';
import { tagsStreamOf } from './tag.ts';

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

/** The commands decided on the tags stream, which decides uniqueness: two admins adding one name at once get one tag and one 409. */
export function createTagCommands({ handle }: CommandHandler) {
  return {
    /** A tag the system adds (the demo data). */
    createTag: (input: { tagId: string; name: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { meta, idempotency },
        { stream: tagsStreamOf(), decide: (tags) => decide({ type: 'CreateTag', data: input }, tags, meta), answer: acceptedAs(input.tagId) },
      ),

    /** 'Add Tag' (POST /api/admin/tags). */
    addTag: (who: Identity, input: { tagId: string; name: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency },
        {
          stream: tagsStreamOf(),
          decide: (tags, { actor }) => (requireAdmin(actor), decide({ type: 'CreateTag', data: input }, tags, meta)),
          answer: (result, { events }): TagAddedAnswer => ({
            success: true,
            id: input.tagId,
            tag: { _id: input.tagId, name: events[0]!.data.name },
            position: positionOf(result!),
          }),
        },
      ),

    /** DELETE /api/admin/tags/:id: posts keep their tag text; the name is free again. */
    deleteTag: (who: Identity, tagId: string, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency },
        {
          stream: tagsStreamOf(),
          decide: (tags, { actor }) => (requireAdmin(actor), decide({ type: 'DeleteTag', data: { tagId } }, tags, meta)),
          answer: (result): TagRemovedAnswer => ({ success: true, id: tagId, position: positionOf(result!) }),
        },
      ),
  };
}
