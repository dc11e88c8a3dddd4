import type { Knex } from '@forum/platform';
import type { ProjectedEvent } from '../runner/projection.ts';

/**
 * What staff did to a member's post, comment or account (issue #43, docs/moderation.md): one
 * `moderation` row each, to the content's author or the member, with the action, the reason staff
 * gave (hiding, suspending) and a suspension's end. Read by `NotificationsRead` as the activity rows.
 */
export const MODERATION_TYPES = ['PostHidden', 'PostUnhidden', 'CommentHidden', 'CommentUnhidden', 'MemberSuspended', 'SuspensionLifted'] as const;
export type ModerationEvent = ProjectedEvent<(typeof MODERATION_TYPES)[number]>;

/** The moderation rows' own columns, beside the notifications' (migrate runs it after the table). */
export const MODERATION_COLUMNS = `ALTER TABLE notifications ADD COLUMN IF NOT EXISTS action text, ADD COLUMN IF NOT EXISTS until timestamptz`;

/** The rows of a run of staff's actions, set-wise; each row's id follows from its event's position (a replay writes the same). */
export async function writeModeration(trx: Knex.Transaction, events: readonly ModerationEvent[]) {
  if (events.length === 0) return;
  const rows = events.map((event) => {
    const position = event.position.globalPosition.toString();
    switch (event.type) {
      case 'PostHidden':
      case 'PostUnhidden': {
        const hidden = event.type === 'PostHidden' ? event.data : null;
        const { postId, authorId } = event.data;
        const at = hidden?.hiddenAt ?? (event.type === 'PostUnhidden' ? event.data.unhiddenAt : '');
        return {
          position,
          userId: authorId,
          action: hidden ? 'post-hidden' : 'post-unhidden',
          reason: hidden?.reason ?? null,
          postId,
          commentId: null,
          until: null,
          at,
        };
      }
      case 'CommentHidden':
      case 'CommentUnhidden': {
        const hidden = event.type === 'CommentHidden' ? event.data : null;
        const { postId, commentId, authorId } = event.data;
        const at = hidden?.hiddenAt ?? (event.type === 'CommentUnhidden' ? event.data.unhiddenAt : '');
        return {
          position,
          userId: authorId,
          action: hidden ? 'comment-hidden' : 'comment-unhidden',
          reason: hidden?.reason ?? null,
          postId,
          commentId,
          until: null,
          at,
        };
      }
      case 'MemberSuspended': {
        const { userId, reason, until, suspendedAt } = event.data;
        return { position, userId, action: 'suspended', reason, postId: null, commentId: null, until, at: suspendedAt };
      }
      case 'SuspensionLifted': {
        const { userId, liftedAt } = event.data;
        return { position, userId, action: 'suspension-lifted', reason: null, postId: null, commentId: null, until: null, at: liftedAt };
      }
    }
  });
  await trx.raw(
    `INSERT INTO notifications (id, user_id, kind, action, reason, post_id, comment_id, until, created_at, updated_at, position)
     SELECT md5('moderation ' || position)::uuid, "userId", 'moderation', action, reason, "postId", "commentId", until, at, at, position
     FROM jsonb_to_recordset(?::jsonb) AS x(position bigint, "userId" text, action text, reason text, "postId" uuid, "commentId" uuid, until timestamptz, at timestamptz)
     ON CONFLICT (id) DO NOTHING`,
    [JSON.stringify(rows)],
  );
}
