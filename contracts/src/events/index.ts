import { PostCreated, PostDeleted, type PostEvent } from './post.ts';
import { TagCreated, type TagEvent } from './tag.ts';
import {
  AdminRoleGranted,
  AuthoredPostRemoved,
  MembershipPurchased,
  MembershipPurchaseFailed,
  MembershipPurchaseStarted,
  PostAuthored,
  ProfileUpdated,
  UserRegistered,
  type UserEvent,
} from './user.ts';

export * from './define.ts';
export * from './post.ts';
export * from './tag.ts';
export * from './user.ts';

/** Every event type of the forum, with the schema of its current version. */
export const eventDefinitions = {
  [PostCreated.type]: PostCreated,
  [PostDeleted.type]: PostDeleted,
  [TagCreated.type]: TagCreated,
  [UserRegistered.type]: UserRegistered,
  [ProfileUpdated.type]: ProfileUpdated,
  [AdminRoleGranted.type]: AdminRoleGranted,
  [PostAuthored.type]: PostAuthored,
  [AuthoredPostRemoved.type]: AuthoredPostRemoved,
  [MembershipPurchaseStarted.type]: MembershipPurchaseStarted,
  [MembershipPurchased.type]: MembershipPurchased,
  [MembershipPurchaseFailed.type]: MembershipPurchaseFailed,
} as const;

export type ForumEvent = PostEvent | TagEvent | UserEvent;
export type ForumEventType = ForumEvent['type'];
