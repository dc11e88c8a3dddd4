import type { CommentModerationEvent, PostModerationEvent, Role } from '@forum/contracts';
import { refuseStaffTarget, type Acting } from '../staff.ts';
import type { CommentState } from '../comment/comment.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import { NotFound } from '../errors.ts';
import type { PostState } from '../post/post.ts';

/**
 * Rules enforced here on a post's or a comment's stream (issue #43, docs/moderation.md); the wiring
 * lets only staff decide them (403 FORBIDDEN):
 * - staff hide a live post or comment with a reason, and show it again; a moderator not a moderator's
 *   or an admin's (403 STAFF_PROTECTED); hiding it again with the same reason, or showing a visible
 *   one, appends nothing; a new reason hides it again with that reason;
 * - staff lock and unlock a live post; locking a locked post, or unlocking an open one, appends nothing;
 * - staff dismiss the reports of a live post or comment: ReportsDismissed on its stream (the reports
 *   themselves are on the reporters' streams: the queue's read model knows which it closes);
 * - a deleted (or removed) or unknown item is 404; a comment of a deleted post too.
 */
export type PostModeration =
  | { type: 'HidePost'; data: { postId: string; reason: string; actor: Acting; authorRole: Role } }
  | { type: 'UnhidePost'; data: { postId: string; actor: Acting; authorRole: Role } }
  | { type: 'LockPost'; data: { postId: string; reason?: string; actor: Acting } }
  | { type: 'UnlockPost'; data: { postId: string; actor: Acting } }
  | { type: 'DismissPostReports'; data: { postId: string; actor: Acting } };

export type CommentModeration =
  | { type: 'HideComment'; data: { commentId: string; reason: string; actor: Acting; authorRole: Role; post: PostState } }
  | { type: 'UnhideComment'; data: { commentId: string; actor: Acting; authorRole: Role; post: PostState } }
  | { type: 'DismissCommentReports'; data: { commentId: string; actor: Acting; post: PostState } };

export function decidePostModeration(command: PostModeration, state: PostState, meta: CommandMeta): PostModerationEvent[] {
  if (state.status !== 'created') throw new NotFound('No such post');
  const at = meta.now.toISOString();
  const { postId, actor } = command.data;
  switch (command.type) {
    case 'HidePost': {
      refuseStaffTarget(actor, { id: state.authorId, role: command.data.authorRole });
      const { reason } = command.data;
      if (state.hidden?.reason === reason) return [];
      return [{ type: 'PostHidden', data: { postId, authorId: state.authorId, reason, hiddenBy: actor.id, hiddenAt: at } }];
    }
    case 'UnhidePost':
      refuseStaffTarget(actor, { id: state.authorId, role: command.data.authorRole });
      return state.hidden ? [{ type: 'PostUnhidden', data: { postId, authorId: state.authorId, unhiddenBy: actor.id, unhiddenAt: at } }] : [];
    case 'LockPost': {
      const { reason } = command.data;
      return state.locked ? [] : [{ type: 'PostLocked', data: { postId, ...(reason !== undefined && { reason }), lockedBy: actor.id, lockedAt: at } }];
    }
    case 'UnlockPost':
      return state.locked ? [{ type: 'PostUnlocked', data: { postId, unlockedBy: actor.id, unlockedAt: at } }] : [];
    case 'DismissPostReports':
      return [{ type: 'ReportsDismissed', data: { item: { kind: 'post', id: postId, postId }, dismissedBy: actor.id, dismissedAt: at } }];
    default:
      return unreachable(command);
  }
}

export function decideCommentModeration(command: CommentModeration, state: CommentState, meta: CommandMeta): CommentModerationEvent[] {
  if (state.status !== 'added' || command.data.post.status !== 'created') throw new NotFound('No such comment');
  const at = meta.now.toISOString();
  const { commentId, actor } = command.data;
  const { postId, authorId } = state;
  switch (command.type) {
    case 'HideComment': {
      refuseStaffTarget(actor, { id: authorId, role: command.data.authorRole });
      const { reason } = command.data;
      if (state.hidden?.reason === reason) return [];
      return [{ type: 'CommentHidden', data: { commentId, postId, authorId, reason, hiddenBy: actor.id, hiddenAt: at } }];
    }
    case 'UnhideComment':
      refuseStaffTarget(actor, { id: authorId, role: command.data.authorRole });
      return state.hidden ? [{ type: 'CommentUnhidden', data: { commentId, postId, authorId, unhiddenBy: actor.id, unhiddenAt: at } }] : [];
    case 'DismissCommentReports':
      return [{ type: 'ReportsDismissed', data: { item: { kind: 'comment', id: commentId, postId }, dismissedBy: actor.id, dismissedAt: at } }];
    default:
      return unreachable(command);
  }
}
