import { announcementStreamOf } from '../announcement/announcement.ts';
import type { ModeratedKind } from '@forum/contracts';
import { actingOf, requireAdmin, requireStaff, type Identity, type RegisteredUser } from '../actor.ts';
import { commentStreamOf } from '../comment/comment.ts';
import { acceptedAs, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Idempotency } from '../execute.ts';
import type { Costs } from '../limits.ts';
import { postStreamOf } from '../post/post.ts';
import { initialUserState, userStreamOf } from '../user/user.ts';
import { decide } from './decide.ts';
import { initialNotificationsState, notificationsStreamOf } from './notification.ts';

/** The commands decided on a member's notifications stream: the warnings staff give them, and what they have read. */
export function createNotificationCommands({ handle, handleMany }: CommandHandler, cost: Costs) {
  /** Decides a warning (see WarnUser) once `allowed` accepts the actor, on the warned member's notifications stream. */
  const warn = (
    who: Identity,
    input: { warningId: string; targetUserId: string | null; reason?: string; commentId?: string; postId?: string },
    meta: CommandMeta,
    idempotency: Idempotency | undefined,
    allowed: (actor: RegisteredUser) => void,
  ) => {
    const { warningId, targetUserId, reason, commentId, postId } = input;
    return handleMany(
      { who, meta, idempotency },
      {
        read: async (reader) => {
          const [target, comment, post, notifications] = await Promise.all([
            targetUserId === null ? initialUserState : reader.read(userStreamOf(targetUserId)).then((read) => read.state),
            commentId === undefined ? undefined : reader.read(commentStreamOf(commentId)).then((read) => read.state),
            postId === undefined ? undefined : reader.read(postStreamOf(postId)).then((read) => read.state),
            targetUserId === null ? null : reader.read(notificationsStreamOf(targetUserId)),
          ]);
          return { target, comment, post, notifications };
        },
        decide: ({ target, comment, post, notifications }, actor) => {
          allowed(actor);
          const data = {
            warningId,
            ...(reason !== undefined && { reason }),
            ...(commentId !== undefined && { commentId }),
            ...(postId !== undefined && { postId }),
            actor: actingOf(actor),
            target,
            ...(comment && { comment }),
            ...(post && { post }),
          };
          const events = decide({ type: 'WarnUser', data }, notifications?.state ?? initialNotificationsState, meta);
          // a warning is decided only for a user the forum knows: one with a notifications stream read
          return notifications ? [{ to: notifications, events }] : [];
        },
        answer: acceptedAs(warningId),
      },
    );
  };

  return {
    /**
     * POST /api/admin/warn-user/:authorEmail (admin). `targetUserId` is whom the email names (null
     * when nobody): the admin check comes first, so a non-admin learns nothing about which emails exist.
     */
    warnUser: (
      who: Identity,
      input: { warningId: string; targetUserId: string | null; reason?: string; commentId?: string },
      meta: CommandMeta,
      idempotency?: Idempotency,
    ) => warn(who, input, meta, idempotency, requireAdmin),

    /**
     * POST /api/admin/users/:userId/warnings (staff, issue #43): by the member's id, about a post
     * or a comment of theirs when `about` names one.
     */
    warnMember: (
      who: Identity,
      input: { warningId: string; targetUserId: string; reason?: string; about?: { kind: ModeratedKind; id: string } },
      meta: CommandMeta,
      idempotency?: Idempotency,
    ) => {
      const { about, ...rest } = input;
      const named = about === undefined ? {} : about.kind === 'post' ? { postId: about.id } : { commentId: about.id };
      return warn(who, { ...rest, ...named }, meta, idempotency, requireStaff);
    },

    /**
     * POST /api/me/notifications/read: the caller's own notifications (see decide's markRead). The write
     * side cannot tell an id the fan-out made from any other, so marks are a write limit's (`read`).
     */
    markNotificationsRead: (who: Identity, input: { ids?: readonly string[]; upTo?: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency, cost: cost('read', who.userId) },
        {
          stream: notificationsStreamOf(who.userId),
          decide: (notifications) => decide({ type: 'MarkNotificationsRead', data: { userId: who.userId, ...input } }, notifications, meta),
          answer: acceptedAs(who.userId),
        },
      ),

    /**
     * POST /api/me/announcements/read: the caller's own mark, on their notifications stream. Two
     * devices marking at once both decide on the version they read; the second append conflicts,
     * reads the first's mark and decides again (nothing, when the first was as new).
     */
    markAnnouncementsRead: (who: Identity, input: { announcementId: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency },
        {
          stream: notificationsStreamOf(who.userId),
          given: { announcement: announcementStreamOf(input.announcementId) },
          decide: (notifications, { announcement }) =>
            decide({ type: 'MarkAnnouncementsRead', data: { userId: who.userId, announcement } }, notifications, meta),
          answer: acceptedAs(who.userId),
        },
      ),
  };
}
