import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';

/**
 * A user's notifications (warnings from the moderators, and how far they have read the
 * announcements) live in a stream of their own rather than the user's stream: the user's
 * stream is loaded by every command the user sends, and moderation should not contend with
 * the user's own writes (a new post, a membership purchase).
 */
export const notificationsStream = (userId: string) => `notifications-${userId}`;

/**
 * An admin warned the user (the admin is the event's metadata.actorId, and `warnedBy`). A warning
 * about a comment names it, its post (`postId`) and quotes its start (`commentQuote`, the warned
 * member's own text, sealed as theirs); warnings written before these fields existed name the
 * comment alone, or nothing.
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

export type NotificationEvent = UserWarned | WarningsRead | AnnouncementsRead;
