import { ANONYMOUS_NAME, checkText, COMMENT_RULE, ErrorCode, isStaffRole, type CommentEvent, type Role } from '@forum/contracts';
import { refuseStaffTarget, type Acting } from '../staff.ts';
import { Conflict, Forbidden, InvalidInput, NotFound } from '../errors.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import type { Author } from '../post/decide.ts';
import { editedRevision, type Editor } from '../revision.ts';
import { postSeenBy, type PostState } from '../post/post.ts';
import type { CommentState } from './comment.ts';

/**
 * Rules enforced here (spec §3 Comment, §5; issue "whole forum on the API", Comments and Moderation):
 * - a comment is added once under its id, to a post that exists and is not deleted (nor hidden, for
 *   a commenter who is not staff: 404), and is not locked (409 POST_LOCKED; staff may still comment);
 * - its text is text by the comment's rule (COMMENT_RULE: trimmed, 1 to COMMENT_MAX characters; an empty one is refused, never stored);
 * - author name (fallback 'Anonymous'), email and photo come from the caller's forum record, time from the clock;
 * - a comment is edited by its author or staff (staff editing someone else's give a reason)
 *   while it and its post are there, its text by the same rule as adding; an edit that changes
 *   nothing appends nothing; an author's edit within the grace period of their own revision folds
 *   into it (revision.ts);
 * - only staff remove a comment (a moderator not a moderator's or an admin's: 403 STAFF_PROTECTED),
 *   once; removing it takes it out of every list and resolves its reports;
 * - a member erasing their account with their content takes their comments that are still there
 *   (EraseComment: the author's own, else nothing).
 */
export type AddComment = {
  type: 'AddComment';
  data: { commentId: string; postId: string; text: string; author: Author; post: PostState; authorIsStaff: boolean };
};
/** `authorRole`: the comment's author's role now. */
export type RemoveComment = { type: 'RemoveComment'; data: { commentId: string; actor: Acting; authorRole: Role } };
/** `authorId`: the erased member; `actorId`: who erases them (themselves or an admin). */
export type EraseComment = { type: 'EraseComment'; data: { commentId: string; authorId: string; actorId: string } };
/** `post`: the state of the comment's post (an edit under a deleted post is refused as the comment is gone). */
export type EditComment = { type: 'EditComment'; data: { commentId: string; editor: Editor; text: string; reason?: string; post: PostState } };
export type CommentCommand = AddComment | EditComment | RemoveComment | EraseComment;

/** A comment on a locked post by a member who is not staff (409). */
export class PostLockedError extends Conflict {
  constructor() {
    super('This post is locked: no new comments can be added.', ErrorCode.POST_LOCKED);
  }
}

export function decide(command: CommentCommand, state: CommentState, meta: CommandMeta): CommentEvent[] {
  switch (command.type) {
    case 'AddComment':
      return addComment(command, state, meta);
    case 'EditComment':
      return editComment(command, state, meta);
    case 'RemoveComment':
      return removeComment(command, state, meta);
    case 'EraseComment':
      return eraseComment(command, state, meta);
    default:
      return unreachable(command);
  }
}

function addComment(command: AddComment, state: CommentState, meta: CommandMeta): CommentEvent[] {
  const { commentId, postId, author, authorIsStaff } = command.data;
  const post = postSeenBy(command.data.post, authorIsStaff);
  if (state.status !== 'none') throw new Conflict(`Comment ${commentId} already exists`);
  if (post.status !== 'created') throw new NotFound('No such post');
  if (post.locked && !authorIsStaff) throw new PostLockedError();
  const text = commentText(command.data.text);
  return [
    {
      type: 'CommentAdded',
      data: {
        commentId,
        postId,
        text,
        authorId: author.id,
        authorName: author.name.trim() || ANONYMOUS_NAME,
        authorEmail: author.email,
        authorPhoto: author.photo,
        createdAt: meta.now.toISOString(),
      },
    },
  ];
}

/** A comment's text by COMMENT_RULE (else InvalidInput on `text`). */
function commentText(value: string): string {
  const checked = checkText(value, COMMENT_RULE);
  if (!checked.ok) throw new InvalidInput({ text: [checked.message] });
  return checked.value;
}

function editComment(command: EditComment, state: CommentState, meta: CommandMeta): CommentEvent[] {
  const { commentId, editor, reason, post } = command.data;
  if (state.status !== 'added' || post.status !== 'created') throw new NotFound('No such comment');
  const revision = editedRevision('comment', state.authorId, state.revision, editor, reason, meta.now);
  const text = commentText(command.data.text);
  if (text === state.text) return [];
  return [
    {
      type: 'CommentEdited',
      data: {
        commentId,
        postId: state.postId,
        authorId: state.authorId,
        editorId: editor.id,
        text,
        ...(reason !== undefined && { reason }),
        revision,
        editedAt: meta.now.toISOString(),
      },
    },
  ];
}

function removeComment(command: RemoveComment, state: CommentState, meta: CommandMeta): CommentEvent[] {
  const { actor, authorRole } = command.data;
  if (!isStaffRole(actor.role)) throw new Forbidden('Only staff can remove a comment');
  if (state.status !== 'added') throw new NotFound('No such comment');
  refuseStaffTarget(actor, { id: state.authorId, role: authorRole });
  return [
    {
      type: 'CommentRemoved',
      data: {
        commentId: command.data.commentId,
        postId: state.postId,
        authorId: state.authorId,
        removedBy: actor.id,
        removedAt: meta.now.toISOString(),
      },
    },
  ];
}

function eraseComment(command: EraseComment, state: CommentState, meta: CommandMeta): CommentEvent[] {
  const { commentId, authorId, actorId } = command.data;
  if (state.status !== 'added' || state.authorId !== authorId) return [];
  return [{ type: 'CommentRemoved', data: { commentId, postId: state.postId, authorId, removedBy: actorId, removedAt: meta.now.toISOString() } }];
}
