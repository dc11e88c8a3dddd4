import type { CommentRevision } from '@forum/contracts';
import { useState } from 'react';
import { EditedButton } from '../../../components/revisions/EditedButton';
import { revisionsState, type RevisionView } from '../../../components/revisions/revision';
import { useGetCommentRevisionsQuery } from '../api/get-comment-revisions';

const view = (revision: CommentRevision): RevisionView => ({
  number: revision.number,
  editedAt: revision.editedAt,
  editorName: revision.editorName,
  reason: revision.reason,
  fields: [{ label: 'Comment', text: revision.text }],
});

/** A comment's "edited <time>": its revisions, read when opened, with the text compared. */
export function CommentEdited({ commentId, editedAt }: { commentId: string; editedAt: string }) {
  const [open, setOpen] = useState(false);
  const state = revisionsState(open, useGetCommentRevisionsQuery(commentId, { skip: !open }), view);
  return <EditedButton editedAt={editedAt} subject="this comment" open={open} onOpenChange={setOpen} state={state} />;
}
