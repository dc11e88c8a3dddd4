import { z } from 'zod';
import { DELIVERIES, NOTIFICATION_KINDS } from '../constants.ts';
import { defineEvent, isoDate } from './define.ts';

/**
 * A user's notifications (warnings from the moderators, and how far they have read the
 * announcements) live in a stream of their own rather than the user's stream: the user's
 * stream is loaded by every command the user sends, and moderation should not contend with
 * the user's own writes (a new post, a membership purchase).
 */
export const notificationsStream = (userId: string) => `notifications-${userId}`;

/**
 * Staff (an admin or a moderator) warned the user (the actor is the event's metadata.actorId, and
 * `warnedBy`). A warning about a comment names it, its post (`postId`) and quotes its start
 * (`commentQuote`, the warned member's own text, sealed as theirs); a warning about a post names the
 * post alone (`postId` without `commentId`, issue #43); warnings written before these fields existed
 * name the comment alone, or nothing.
 */
export const UserWarned = defineEvent(
  'UserWarned',
  1,
  z.object({
    warningId: z.string().uuid(),
    userId: z.string(),
    reason: z.string(),
    commentId: z.string().uuid().optional(),
    postId: z.string().uuid().optional(),
    commentQuote: z.string().optional(),
    warnedBy: z.string(),
    warnedAt: isoDate,
  }),
);
export type UserWarned = { type: 'UserWarned'; data: z.infer<typeof UserWarned.schema> };

export const WarningsRead = defineEvent('WarningsRead', 1, z.object({ userId: z.string(), warningIds: z.array(z.string().uuid()).min(1), readAt: isoDate }));
export type WarningsRead = { type: 'WarningsRead'; data: z.infer<typeof WarningsRead.schema> };

/**
 * The member read the announcements up to `announcementId` (the newest they were shown): it and
 * every announcement published up to its time (`upTo`, its `publishedAt`) are read, on every
 * device they sign in on. A member's mark only moves forward.
 */
export const AnnouncementsRead = defineEvent(
  'AnnouncementsRead',
  1,
  z.object({ userId: z.string(), announcementId: z.string().uuid(), upTo: isoDate, readAt: isoDate }),
);
export type AnnouncementsRead = { type: 'AnnouncementsRead'; data: z.infer<typeof AnnouncementsRead.schema> };

/**
 * The member read their notifications of replies, follows and mentions (the notifications projection's
 * rows): those named by `ids` (ones not theirs change nothing), or, without ids, every one last changed
 * up to `upTo`. Warnings are read by `WarningsRead`.
 */
export const NotificationsRead = defineEvent(
  'NotificationsRead',
  1,
  z.object({ userId: z.string(), ids: z.array(z.string().uuid()).min(1).optional(), upTo: isoDate.optional(), readAt: isoDate }),
);
export type NotificationsRead = { type: 'NotificationsRead'; data: z.infer<typeof NotificationsRead.schema> };

/**
 * The member chose how kinds of notification reach them (only the kinds named change; the others keep
 * what they were, DEFAULT_DELIVERIES until chosen). `via`: their settings, or an email's unsubscribe link.
 */
export const NotificationPreferencesChanged = defineEvent(
  'NotificationPreferencesChanged',
  1,
  z.object({
    userId: z.string(),
    changes: z.partialRecord(z.enum(NOTIFICATION_KINDS), z.enum(DELIVERIES)),
    via: z.enum(['settings', 'unsubscribe']),
    changedAt: isoDate,
  }),
);
export type NotificationPreferencesChanged = { type: 'NotificationPreferencesChanged'; data: z.infer<typeof NotificationPreferencesChanged.schema> };

export type NotificationEvent = UserWarned | WarningsRead | AnnouncementsRead | NotificationsRead | NotificationPreferencesChanged;
