import { z } from 'zod';
import { REPORT_FEEDBACK } from '../constants.ts';
import { defineEvent, isoDate } from './define.ts';

/**
 * Moderation beyond comments (issue #43, docs/moderation.md): the moderator role, reports of posts,
 * hiding, locking, pinning and suspending. Staff (admins and moderators) act; every action names who
 * acted and when, and the actions members are told about carry the reason staff gave.
 */

/** What a report or a moderation action is about. */
export const MODERATED_KINDS = ['post', 'comment'] as const;
export type ModeratedKind = (typeof MODERATED_KINDS)[number];

/** One stream per (post, reporter): "a member reports a post once" is decided there, as for comments. */
export const postReportStream = (postId: string, reporterId: string) => `post-report-${postId}-${reporterId}`;

/** The one stream of the pinned posts: "at most PINNED_MAX" is decided there, so two pins at once cannot pass it. */
export const PINS_STREAM = 'pins';

// ── the moderator role (on the member's `user-<id>` stream) ─────────────────

/** An admin made the member a moderator. */
export const ModeratorRoleGranted = defineEvent('ModeratorRoleGranted', 1, z.object({ userId: z.string(), grantedBy: z.string(), grantedAt: isoDate }));
export type ModeratorRoleGranted = { type: 'ModeratorRoleGranted'; data: z.infer<typeof ModeratorRoleGranted.schema> };

/** An admin took the moderator role back: the member is a member again. */
export const ModeratorRoleRevoked = defineEvent('ModeratorRoleRevoked', 1, z.object({ userId: z.string(), revokedBy: z.string(), revokedAt: isoDate }));
export type ModeratorRoleRevoked = { type: 'ModeratorRoleRevoked'; data: z.infer<typeof ModeratorRoleRevoked.schema> };

// ── suspensions (on the member's `user-<id>` stream) ───────────────────────

/** The reported item a moderation action came from (the console's queue), when it came from one. */
export const ModeratedItem = z.object({ kind: z.enum(MODERATED_KINDS), id: z.string().uuid(), postId: z.string().uuid() });
export type ModeratedItem = z.infer<typeof ModeratedItem>;

/**
 * Staff suspended the member until `until` (null: until lifted). While suspended they sign in and
 * read, but write nothing (403 MEMBER_SUSPENDED); the end needs no event: deciders compare `until`
 * with their clock. A new suspension replaces the one in force.
 */
export const MemberSuspended = defineEvent(
  'MemberSuspended',
  1,
  z.object({
    userId: z.string(),
    reason: z.string(),
    until: isoDate.nullable(),
    suspendedBy: z.string(),
    suspendedAt: isoDate,
    about: ModeratedItem.optional(),
  }),
);
export type MemberSuspended = { type: 'MemberSuspended'; data: z.infer<typeof MemberSuspended.schema> };

/** Staff lifted the suspension in force before its end. */
export const SuspensionLifted = defineEvent('SuspensionLifted', 1, z.object({ userId: z.string(), liftedBy: z.string(), liftedAt: isoDate }));
export type SuspensionLifted = { type: 'SuspensionLifted'; data: z.infer<typeof SuspensionLifted.schema> };

// ── reports of posts (on `post-report-<postId>-<reporterId>`) ───────────────

/** A member reported a post. The reporter's name, email and photo come from their forum record (as CommentReported). */
export const PostReported = defineEvent(
  'PostReported',
  1,
  z.object({
    postId: z.string().uuid(),
    reporterId: z.string(),
    reporterName: z.string(),
    reporterEmail: z.string(),
    reporterPhoto: z.string(),
    feedback: z.enum(REPORT_FEEDBACK),
    reportedAt: isoDate,
  }),
);
export type PostReported = { type: 'PostReported'; data: z.infer<typeof PostReported.schema> };

// ── on the item's own stream (`post-<id>`, `comment-<id>`) ─────────────────

/** Staff dismissed the open reports of a post or comment: it leaves the queue as it is. */
export const ReportsDismissed = defineEvent('ReportsDismissed', 1, z.object({ item: ModeratedItem, dismissedBy: z.string(), dismissedAt: isoDate }));
export type ReportsDismissed = { type: 'ReportsDismissed'; data: z.infer<typeof ReportsDismissed.schema> };

/** Staff hid a post: only its author and staff see it, marked with the reason; its author is told why. */
export const PostHidden = defineEvent(
  'PostHidden',
  1,
  z.object({ postId: z.string().uuid(), authorId: z.string(), reason: z.string(), hiddenBy: z.string(), hiddenAt: isoDate }),
);
export type PostHidden = { type: 'PostHidden'; data: z.infer<typeof PostHidden.schema> };

export const PostUnhidden = defineEvent(
  'PostUnhidden',
  1,
  z.object({ postId: z.string().uuid(), authorId: z.string(), unhiddenBy: z.string(), unhiddenAt: isoDate }),
);
export type PostUnhidden = { type: 'PostUnhidden'; data: z.infer<typeof PostUnhidden.schema> };

/** Staff hid a comment (as PostHidden). */
export const CommentHidden = defineEvent(
  'CommentHidden',
  1,
  z.object({ commentId: z.string().uuid(), postId: z.string().uuid(), authorId: z.string(), reason: z.string(), hiddenBy: z.string(), hiddenAt: isoDate }),
);
export type CommentHidden = { type: 'CommentHidden'; data: z.infer<typeof CommentHidden.schema> };

export const CommentUnhidden = defineEvent(
  'CommentUnhidden',
  1,
  z.object({ commentId: z.string().uuid(), postId: z.string().uuid(), authorId: z.string(), unhiddenBy: z.string(), unhiddenAt: isoDate }),
);
export type CommentUnhidden = { type: 'CommentUnhidden'; data: z.infer<typeof CommentUnhidden.schema> };

/** Staff locked a post: no new comments (409 POST_LOCKED) until unlocked; the post says so. */
export const PostLocked = defineEvent(
  'PostLocked',
  1,
  z.object({ postId: z.string().uuid(), reason: z.string().optional(), lockedBy: z.string(), lockedAt: isoDate }),
);
export type PostLocked = { type: 'PostLocked'; data: z.infer<typeof PostLocked.schema> };

export const PostUnlocked = defineEvent('PostUnlocked', 1, z.object({ postId: z.string().uuid(), unlockedBy: z.string(), unlockedAt: isoDate }));
export type PostUnlocked = { type: 'PostUnlocked'; data: z.infer<typeof PostUnlocked.schema> };

// ── pins (on PINS_STREAM) ──────────────────────────────────────────────────

/** Staff pinned a post: it comes first on the home page's first page, for everyone (at most PINNED_MAX). */
export const PostPinned = defineEvent('PostPinned', 1, z.object({ postId: z.string().uuid(), pinnedBy: z.string(), pinnedAt: isoDate }));
export type PostPinned = { type: 'PostPinned'; data: z.infer<typeof PostPinned.schema> };

/** Staff unpinned a post. A pinned post that is deleted stops counting toward PINNED_MAX (the pin's decider reads the pinned posts' streams) and is shown nowhere. */
export const PostUnpinned = defineEvent('PostUnpinned', 1, z.object({ postId: z.string().uuid(), unpinnedBy: z.string(), unpinnedAt: isoDate }));
export type PostUnpinned = { type: 'PostUnpinned'; data: z.infer<typeof PostUnpinned.schema> };

export type ModeratorRoleEvent = ModeratorRoleGranted | ModeratorRoleRevoked;
export type SuspensionEvent = MemberSuspended | SuspensionLifted;
export type PostReportEvent = PostReported;
export type PostModerationEvent = ReportsDismissed | PostHidden | PostUnhidden | PostLocked | PostUnlocked;
export type CommentModerationEvent = ReportsDismissed | CommentHidden | CommentUnhidden;
export type PinEvent = PostPinned | PostUnpinned;
