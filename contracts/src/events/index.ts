import { PostCreated, type PostEvent } from './post.ts';
import { TagCreated, type TagEvent } from './tag.ts';

export * from './define.ts';
export * from './post.ts';
export * from './tag.ts';

/** Every event type of the forum, with the schema of its current version. */
export const eventDefinitions = {
  [PostCreated.type]: PostCreated,
  [TagCreated.type]: TagCreated,
} as const;

export type ForumEvent = PostEvent | TagEvent;
export type ForumEventType = ForumEvent['type'];
