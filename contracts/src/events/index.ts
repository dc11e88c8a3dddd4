import { PostCreated, type PostEvent } from './post.ts';
import { TagCreated, type TagEvent } from './tag.ts';
import { AdminRoleGranted, ProfileUpdated, UserRegistered, type UserEvent } from './user.ts';

export * from './define.ts';
export * from './post.ts';
export * from './tag.ts';
export * from './user.ts';

/** Every event type of the forum, with the schema of its current version. */
export const eventDefinitions = {
  [PostCreated.type]: PostCreated,
  [TagCreated.type]: TagCreated,
  [UserRegistered.type]: UserRegistered,
  [ProfileUpdated.type]: ProfileUpdated,
  [AdminRoleGranted.type]: AdminRoleGranted,
} as const;

export type ForumEvent = PostEvent | TagEvent | UserEvent;
export type ForumEventType = ForumEvent['type'];
