import { AUDIT_TYPES, type AuditType } from '@forum/contracts';

/** What each staff action is called on screen (the API's types: AUDIT_TYPES). */
export const AUDIT_TYPE_LABELS: Record<AuditType, string> = {
  AdminRoleGranted: 'Made admin',
  TagCreated: 'Tag created',
  TagDeleted: 'Tag deleted',
  AnnouncementPublished: 'Announcement published',
  CommentRemoved: 'Comment removed',
  UserWarned: 'User warned',
  PostDeleted: 'Post deleted',
  ProjectionRebuildRequested: 'Projection rebuild',
  AccountErased: 'Account erased',
  AccountDisabled: 'Account disabled',
  AccountEnabled: 'Account enabled',
  PostEdited: 'Post edited',
  CommentEdited: 'Comment edited',
  ModeratorRoleGranted: 'Made moderator',
  ModeratorRoleRevoked: 'Moderator role taken back',
  MemberSuspended: 'Member suspended',
  SuspensionLifted: 'Suspension lifted',
  ReportsDismissed: 'Reports dismissed',
  PostHidden: 'Post hidden',
  PostUnhidden: 'Post shown again',
  CommentHidden: 'Comment hidden',
  CommentUnhidden: 'Comment shown again',
  PostLocked: 'Post locked',
  PostUnlocked: 'Post unlocked',
  PostPinned: 'Post pinned',
  PostUnpinned: 'Post unpinned',
};

/** The type filter's choices, in the contracts' order. */
export const AUDIT_TYPE_CHOICES = AUDIT_TYPES.map((type) => ({ id: type, name: AUDIT_TYPE_LABELS[type] }));
