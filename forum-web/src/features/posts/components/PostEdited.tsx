import type { PostRevision } from '@forum/contracts';
import { useState } from 'react';
import { EditedButton } from '../../../components/revisions/EditedButton';
import { revisionsState, type RevisionView } from '../../../components/revisions/revision';
import { useGetPostRevisionsQuery } from '../api/get-post-revisions';

const view = (revision: PostRevision): RevisionView => ({
  number: revision.number,
  editedAt: revision.editedAt,
  editorName: revision.editorName,
  reason: revision.reason,
  fields: [
    { label: 'Title', text: revision.title },
    { label: 'Description', text: revision.description },
    { label: 'Tags', text: revision.tags.map((tag) => `#${tag}`).join(' ') },
  ],
});

/** A post's "edited <time>": its revisions, read when opened, with the title, description and tags compared. */
export function PostEdited({ postId, editedAt }: { postId: string; editedAt: string }) {
  const [open, setOpen] = useState(false);
  const state = revisionsState(open, useGetPostRevisionsQuery(postId, { skip: !open }), view);
  return <EditedButton editedAt={editedAt} subject="this post" open={open} onOpenChange={setOpen} state={state} />;
}
