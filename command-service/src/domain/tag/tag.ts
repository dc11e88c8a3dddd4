import { TAGS_STREAM, type TagEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';

export { TAGS_STREAM };

/** The set of tags, by lower-cased name. */
export interface TagsState {
  readonly byName: ReadonlyMap<string, { id: string; name: string }>;
}

export const initialTagsState: TagsState = { byName: new Map() };

export function evolve(state: TagsState, event: TagEvent): TagsState {
  switch (event.type) {
    case 'TagCreated': {
      const byName = new Map(state.byName);
      byName.set(event.data.name.toLowerCase(), { id: event.data.tagId, name: event.data.name });
      return { byName };
    }
    default:
      return unreachable(event.type);
  }
}

/** The canonical spelling of a tag name, or null when there is no such tag. */
export function canonicalTag(state: TagsState, name: string): string | null {
  return state.byName.get(name.trim().toLowerCase())?.name ?? null;
}
