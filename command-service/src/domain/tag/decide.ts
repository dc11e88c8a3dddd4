import type { TagEvent } from '@forum/contracts';
import { ConflictError } from '@forum/platform';
import { unreachable, type CommandMeta } from '../command.ts';
import type { TagsState } from './tag.ts';

/**
 * Rules (spec §6, admin tags): a tag name is unique ignoring case.
 */
export type CreateTag = { type: 'CreateTag'; data: { tagId: string; name: string } };
export type TagCommand = CreateTag;

export class TagExistsError extends ConflictError {
  constructor(name: string) {
    super(`The tag "${name}" already exists`, 'TAG_EXISTS');
  }
}

export function decide(command: TagCommand, state: TagsState, meta: CommandMeta): TagEvent[] {
  switch (command.type) {
    case 'CreateTag':
      return createTag(command, state, meta);
    default:
      return unreachable(command.type);
  }
}

function createTag(command: CreateTag, state: TagsState, meta: CommandMeta): TagEvent[] {
  const name = command.data.name.trim();
  if (state.byName.has(name.toLowerCase())) throw new TagExistsError(name);
  return [{ type: 'TagCreated', data: { tagId: command.data.tagId, name, createdAt: meta.now.toISOString() } }];
}
