import { CommentAdded, CommentEdited, CommentRemoved, CommentReported, type CommentEvent, type CommentReportEvent } from './comment.ts';
import { AnnouncementsRead, NotificationPreferencesChanged, NotificationsRead, UserWarned, WarningsRead, type NotificationEvent } from './notification.ts';
import { PostFollowed, PostUnfollowed, TagFollowed, TagUnfollowed, type FollowEvent } from './follow.ts';
import { HandleChanged, HandleClaimed, HandleReleased, type HandleEvent } from './handle.ts';
import { PostCreated, PostDeleted, PostEdited, type PostEvent } from './post.ts';
import { TagCreated, TagDeleted, type TagEvent } from './tag.ts';
import { AnnouncementPublished, type AnnouncementEvent } from './announcement.ts';
import { ContactMessageReceived, type ContactEvent } from './contact.ts';
import { ProjectionRebuildRequested, type OperationsEvent } from './operations.ts';
import {
  AccountDisabled,
  AccountEnabled,
  AccountErased,
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
import { VoteCast, type VoteEvent } from './vote.ts';
import {
  CommentHidden,
  CommentUnhidden,
  MemberSuspended,
  ModeratorRoleGranted,
  ModeratorRoleRevoked,
  PostHidden,
  PostLocked,
  PostPinned,
  PostReported,
  PostUnhidden,
  PostUnlocked,
  PostUnpinned,
  ReportsDismissed,
  SuspensionLifted,
  type CommentModerationEvent,
  type ModeratorRoleEvent,
  type PinEvent,
  type PostModerationEvent,
  type PostReportEvent,
  type SuspensionEvent,
} from './moderation.ts';

export * from './define.ts';
export * from './comment.ts';
export * from './notification.ts';
export * from './follow.ts';
export * from './handle.ts';
export * from './vote.ts';
export * from './post.ts';
export * from './tag.ts';
export * from './announcement.ts';
export * from './contact.ts';
export * from './operations.ts';
export * from './user.ts';
export * from './personal-data.ts';
export * from './history.ts';
export * from './moderation.ts';

/** Every event type of the forum, with the schema of its current version. */
export const eventDefinitions = {
  [PostCreated.type]: PostCreated,
  [PostDeleted.type]: PostDeleted,
  [PostEdited.type]: PostEdited,
  [TagCreated.type]: TagCreated,
  [TagDeleted.type]: TagDeleted,
  [AnnouncementPublished.type]: AnnouncementPublished,
  [ContactMessageReceived.type]: ContactMessageReceived,
  [UserRegistered.type]: UserRegistered,
  [ProfileUpdated.type]: ProfileUpdated,
  [AdminRoleGranted.type]: AdminRoleGranted,
  [PostAuthored.type]: PostAuthored,
  [AuthoredPostRemoved.type]: AuthoredPostRemoved,
  [MembershipPurchaseStarted.type]: MembershipPurchaseStarted,
  [MembershipPurchased.type]: MembershipPurchased,
  [MembershipPurchaseFailed.type]: MembershipPurchaseFailed,
  [AccountErased.type]: AccountErased,
  [AccountDisabled.type]: AccountDisabled,
  [AccountEnabled.type]: AccountEnabled,
  [VoteCast.type]: VoteCast,
  [CommentAdded.type]: CommentAdded,
  [CommentRemoved.type]: CommentRemoved,
  [CommentEdited.type]: CommentEdited,
  [CommentReported.type]: CommentReported,
  [UserWarned.type]: UserWarned,
  [WarningsRead.type]: WarningsRead,
  [AnnouncementsRead.type]: AnnouncementsRead,
  [NotificationsRead.type]: NotificationsRead,
  [NotificationPreferencesChanged.type]: NotificationPreferencesChanged,
  [PostFollowed.type]: PostFollowed,
  [PostUnfollowed.type]: PostUnfollowed,
  [TagFollowed.type]: TagFollowed,
  [TagUnfollowed.type]: TagUnfollowed,
  [HandleClaimed.type]: HandleClaimed,
  [HandleReleased.type]: HandleReleased,
  [HandleChanged.type]: HandleChanged,
  [ProjectionRebuildRequested.type]: ProjectionRebuildRequested,
  [ModeratorRoleGranted.type]: ModeratorRoleGranted,
  [ModeratorRoleRevoked.type]: ModeratorRoleRevoked,
  [MemberSuspended.type]: MemberSuspended,
  [SuspensionLifted.type]: SuspensionLifted,
  [PostReported.type]: PostReported,
  [ReportsDismissed.type]: ReportsDismissed,
  [PostHidden.type]: PostHidden,
  [PostUnhidden.type]: PostUnhidden,
  [CommentHidden.type]: CommentHidden,
  [CommentUnhidden.type]: CommentUnhidden,
  [PostLocked.type]: PostLocked,
  [PostUnlocked.type]: PostUnlocked,
  [PostPinned.type]: PostPinned,
  [PostUnpinned.type]: PostUnpinned,
} as const;

export type ForumEvent =
  | PostEvent
  | TagEvent
  | UserEvent
  | VoteEvent
  | CommentEvent
  | CommentReportEvent
  | NotificationEvent
  | AnnouncementEvent
  | ContactEvent
  | OperationsEvent
  | FollowEvent
  | HandleEvent
  | ModeratorRoleEvent
  | SuspensionEvent
  | PostReportEvent
  | PostModerationEvent
  | CommentModerationEvent
  | PinEvent;
export type ForumEventType = ForumEvent['type'];
