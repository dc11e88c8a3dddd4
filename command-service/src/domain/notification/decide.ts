import { cutText, DEFAULT_WARNING_REASON, ErrorCode, isStaffRole, WARNING_QUOTE_LENGTH, type NotificationEvent } from '@forum/contracts';
import { refuseStaffTarget, type Acting } from '../staff.ts';
import { Conflict, Forbidden, NotFound } from '../errors.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import type { AnnouncementState } from '../announcement/announcement.ts';
import type { CommentState } from '../comment/comment.ts';
import type { PostState } from '../post/post.ts';
import type { UserState } from '../user/user.ts';
import type { NotificationsState } from './notification.ts';

/**
 * Rules enforced here (spec §2 Reported Comments 'Warn User', §4; issue "whole forum on the API", Moderation):
 * - only staff warn a user (a moderator not a moderator or an admin: 403 STAFF_PROTECTED), and only a
 *   user the forum knows (404 otherwise);
 * - a warning that names a comment names one the warned user wrote (404 otherwise; removed ones count:
 *   an admin often removes the comment and then warns its author);
 * - a warning about a comment names the comment and its post and quotes the comment's start (WARNING_QUOTE_LENGTH
 *   characters), and a comment is warned about once (409 ALREADY_WARNED; issue #28, docs/moderation.md);
 * - a warning about a post (issue #43) names the post alone, one the warned user wrote (404 otherwise;
 *   deleted ones count), once (409 ALREADY_WARNED);
 * - without a reason the warning says DEFAULT_WARNING_REASON;
 * - a member marks their notifications read: by id, up to a time, or all. Warnings are known here: those not read yet
 *   are read by WarningsRead (marking read ones again appends nothing). The other notifications are rows the read
 *   model fans out, which this stream cannot know: NotificationsRead names the ids that are not warnings nor already
 *   read by id (a read row never turns unread), or the time up to which everything is read ('all': now); ids all read
 *   before, or a time no later than the newest one already read, append nothing;
 * - a member marks the announcements read up to one the forum has published (404 otherwise), for all their devices;
 *   the mark only moves forward: one no newer than theirs appends nothing (issue #31).
 */
export type WarnUser = {
  type: 'WarnUser';
  data: {
    warningId: string;
    reason?: string;
    commentId?: string;
    /** A post named alone (never with `commentId`). */
    postId?: string;
    actor: Acting;
    /** The warned user's stream, and the named comment's (or post's) stream when `commentId` (or `postId`) is given. */
    target: UserState;
    comment?: CommentState;
    post?: PostState;
  };
};
export type MarkNotificationsRead = { type: 'MarkNotificationsRead'; data: { userId: string; ids?: readonly string[]; upTo?: string } };
/** `announcement` is the stream of the announcement named (its state: whether and when it was published). */
export type MarkAnnouncementsRead = { type: 'MarkAnnouncementsRead'; data: { userId: string; announcement: AnnouncementState } };
export type NotificationCommand = WarnUser | MarkNotificationsRead | MarkAnnouncementsRead;

export class AlreadyWarnedError extends Conflict {
  constructor(what: 'comment' | 'post') {
    super(`This ${what} has already been warned about.`, ErrorCode.ALREADY_WARNED);
  }
}

export function decide(command: NotificationCommand, state: NotificationsState, meta: CommandMeta): NotificationEvent[] {
  switch (command.type) {
    case 'WarnUser':
      return warnUser(command, state, meta);
    case 'MarkNotificationsRead':
      return markRead(command, state, meta);
    case 'MarkAnnouncementsRead':
      return markAnnouncementsRead(command, state, meta);
    default:
      return unreachable(command);
  }
}

function warnUser(command: WarnUser, state: NotificationsState, meta: CommandMeta): NotificationEvent[] {
  const { warningId, reason, commentId, postId, actor, target, comment, post } = command.data;
  if (!isStaffRole(actor.role)) throw new Forbidden('Only staff can warn a user');
  if (target.status !== 'registered') throw new NotFound('No such user');
  refuseStaffTarget(actor, { id: target.userId, role: target.role });
  let named: { commentId?: string; postId: string; commentQuote?: string } | null = null;
  if (commentId !== undefined) {
    if (comment === undefined || comment.status === 'none' || comment.authorId !== target.userId) throw new NotFound('No such comment by this user');
    if (state.warnedComments.has(commentId)) throw new AlreadyWarnedError('comment');
    // an erased member's comment reads as '': nothing to quote
    named = { commentId, postId: comment.postId, ...(comment.text !== '' && { commentQuote: cutText(comment.text, WARNING_QUOTE_LENGTH).preview }) };
  } else if (postId !== undefined) {
    if (post === undefined || post.status === 'none' || post.authorId !== target.userId) throw new NotFound('No such post by this user');
    if (state.warnedPosts.has(postId)) throw new AlreadyWarnedError('post');
    named = { postId };
  }
  if (state.warnings.has(warningId)) throw new Conflict(`Warning ${warningId} already exists`);
  return [
    {
      type: 'UserWarned',
      data: {
        warningId,
        userId: target.userId,
        reason: reason?.trim() || DEFAULT_WARNING_REASON,
        ...named,
        warnedBy: actor.id,
        warnedAt: meta.now.toISOString(),
      },
    },
  ];
}

function markRead(command: MarkNotificationsRead, state: NotificationsState, meta: CommandMeta): NotificationEvent[] {
  const { userId, ids, upTo } = command.data;
  const readAt = meta.now.toISOString();
  const limit = upTo === undefined ? null : Date.parse(upTo);
  const warningIds = [...state.warnings]
    .filter(([id, warning]) => !warning.read && (ids === undefined || ids.includes(id)) && (limit === null || Date.parse(warning.createdAt) <= limit))
    .map(([id]) => id);
  const events: NotificationEvent[] = warningIds.length === 0 ? [] : [{ type: 'WarningsRead', data: { userId, warningIds, readAt } }];
  if (ids !== undefined) {
    const others = ids.filter((id) => !state.warnings.has(id) && !state.readIds.has(id));
    if (others.length > 0) events.push({ type: 'NotificationsRead', data: { userId, ids: [...new Set(others)], readAt } });
  } else {
    const until = upTo === undefined ? readAt : new Date(upTo).toISOString();
    const before = state.activityReadUpTo;
    if (before === null || Date.parse(until) > Date.parse(before)) events.push({ type: 'NotificationsRead', data: { userId, upTo: until, readAt } });
  }
  return events;
}

function markAnnouncementsRead(command: MarkAnnouncementsRead, state: NotificationsState, meta: CommandMeta): NotificationEvent[] {
  const { userId, announcement } = command.data;
  if (announcement.status !== 'published') throw new NotFound('No such announcement');
  const current = state.announcementsReadUpTo;
  if (current !== null && Date.parse(announcement.publishedAt) <= Date.parse(current)) return [];
  return [
    {
      type: 'AnnouncementsRead',
      data: { userId, announcementId: announcement.announcementId, upTo: announcement.publishedAt, readAt: meta.now.toISOString() },
    },
  ];
}
