import { TAGS_STREAM, type TagEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

/** The set of live tags, by lower-cased name. */
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
    case 'TagDeleted': {
      const key = event.data.name.toLowerCase();
      if (state.byName.get(key)?.id !== event.data.tagId) return state;
      const byName = new Map(state.byName);
      byName.delete(key);
      return { byName };
    }
    default:
      return unreachable(event);
  }
}

/** The canonical spelling of a tag name, or null when there is no such tag. */
export function canonicalTag(state: TagsState, name: string): string | null {
  return state.byName.get(name.trim().toLowerCase())?.name ?? null;
}

/** A live tag by its id (tags are few: a scan is fine). */
export function tagById(state: TagsState, tagId: string): { id: string; name: string } | null {
  for (const tag of state.byName.values()) if (tag.id === tagId) return tag;
  return null;
}

/** The forum's one tags stream, as the command handler reads it. */
export const tagsStreamOf = (): Stream<TagsState, TagEvent> => ({ id: TAGS_STREAM, evolve, initialState: initialTagsState });
