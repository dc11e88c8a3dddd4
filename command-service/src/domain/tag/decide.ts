import { ErrorCode, type TagEvent, type TagExistsDetails } from '@forum/contracts';
import { Conflict, NotFound } from '../errors.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import { tagById, type TagsState } from './tag.ts';

/**
 * Rules (spec §6 admin tags; issue "whole forum on the API"):
 * - a tag name is trimmed and unique ignoring case among the live tags (a refusal names the tag that exists);
 * - a tag is deleted by its id, once (404 for an unknown or deleted one); posts keep their tag text;
 * - a deleted tag's name may be created again (as a new tag).
 * Who may do it (an admin) is checked where the command is wired (commands.ts): the demo data creates tags as the system.
 */
export type CreateTag = { type: 'CreateTag'; data: { tagId: string; name: string } };
export type DeleteTag = { type: 'DeleteTag'; data: { tagId: string } };
export type TagCommand = CreateTag | DeleteTag;

/** A name taken, ignoring case: names the tag that exists, in its own spelling (TagExistsDetails). */
export class TagExistsError extends Conflict {
  constructor(existing: { id: string; name: string }) {
    const details: TagExistsDetails = { tag: { _id: existing.id, name: existing.name } };
    super(`The tag "${existing.name}" already exists`, ErrorCode.TAG_EXISTS, details);
  }
}

export function decide(command: TagCommand, state: TagsState, meta: CommandMeta): TagEvent[] {
  switch (command.type) {
    case 'CreateTag':
      return createTag(command, state, meta);
    case 'DeleteTag':
      return deleteTag(command, state, meta);
    default:
      return unreachable(command);
  }
}

function createTag(command: CreateTag, state: TagsState, meta: CommandMeta): TagEvent[] {
  const name = command.data.name.trim();
  const existing = state.byName.get(name.toLowerCase());
  if (existing) throw new TagExistsError(existing);
  return [{ type: 'TagCreated', data: { tagId: command.data.tagId, name, createdAt: meta.now.toISOString() } }];
}

function deleteTag(command: DeleteTag, state: TagsState, meta: CommandMeta): TagEvent[] {
  const tag = tagById(state, command.data.tagId);
  if (!tag) throw new NotFound('No such tag');
  return [{ type: 'TagDeleted', data: { tagId: tag.id, name: tag.name, deletedAt: meta.now.toISOString() } }];
}
