import { EDIT_GRACE_SECONDS, ErrorCode } from '@forum/contracts';
import { Forbidden, RuleBroken } from './errors.ts';

/**
 * A post's or a comment's visible revision (docs/product.md, Editing): its number (1 is the text as
 * written), the time of its first event and who made it. Later edits fold into it or make the next.
 */
export interface Revision {
  readonly number: number;
  /** Milliseconds since the epoch of the revision's first event. */
  readonly at: number;
  readonly by: string;
}

/** The first revision: what the author wrote, at `createdAt`. */
export const firstRevision = (authorId: string, createdAt: string): Revision => ({ number: 1, at: Date.parse(createdAt), by: authorId });

/** The revision after an edit that made or folded into revision `number`, by `editorId` at `editedAt`. */
export const revisionAfter = (current: Revision, number: number, editorId: string, editedAt: string): Revision =>
  number === current.number ? current : { number, at: Date.parse(editedAt), by: editorId };

/** Who edits: their id, and whether they are staff (the forum's moderator or admin role, from their own stream). */
export interface Editor {
  readonly id: string;
  readonly isStaff: boolean;
}

export class EditReasonRequired extends RuleBroken {
  constructor(what: 'post' | 'comment') {
    super(ErrorCode.EDIT_REASON_REQUIRED, `Say why you are editing someone else's ${what}`);
  }
}

/**
 * The revision an edit by `editor` of `authorId`'s `what` makes, at `now`: the author or staff may
 * edit (else Forbidden); staff editing someone else's give a reason (else EditReasonRequired). An
 * author's edit within EDIT_GRACE_SECONDS of the current revision, which they made, folds into it
 * (its number); any other edit makes the next one.
 */
export function editedRevision(what: 'post' | 'comment', authorId: string, current: Revision, editor: Editor, reason: string | undefined, now: Date): number {
  const byAuthor = editor.id === authorId;
  if (!byAuthor && !editor.isStaff) throw new Forbidden(`Only the author or staff can edit this ${what}`);
  if (!byAuthor && reason === undefined) throw new EditReasonRequired(what);
  const withinGrace = now.getTime() - current.at <= EDIT_GRACE_SECONDS * 1000;
  return byAuthor && current.by === authorId && withinGrace ? current.number : current.number + 1;
}
