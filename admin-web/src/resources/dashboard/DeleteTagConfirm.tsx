import { useState } from 'react';
import { Confirm, useDataProvider } from 'react-admin';
import type { ForumDataProvider } from '../../dataProvider';
import type { TagOutcome, TagRecord } from './types';

export interface DeleteTagConfirmProps {
  /** the tag asked about (kept while the dialog closes, so its title does not change) */
  tag: TagRecord | null;
  open: boolean;
  onClose: () => void;
  /** after the server's answer, deleted or not: the tags are read again (another admin may have deleted it first) */
  onSettled: (deleted: boolean) => Promise<unknown>;
  /** once the dialog has gone: where the focus goes is the caller's call */
  onExited: () => void;
  /** what came of it, for the caller to say */
  onOutcome: (outcome: TagOutcome) => void;
}

/**
 * Spec §2/§8 deleting a tag: 'Are you sure you want to delete this tag?' (react-admin's Confirm),
 * pessimistic: 'Tag deleted successfully' or 'Failed to delete tag' with the server's answer. One
 * dialog for the whole grid: it outlives the tag it deletes, so its closing is always seen.
 */
export function DeleteTagConfirm({ tag, open, onClose, onSettled, onExited, onOutcome }: DeleteTagConfirmProps) {
  const dataProvider = useDataProvider<ForumDataProvider>();
  const [pending, setPending] = useState(false);

  const confirm = async () => {
    if (!tag) return;
    setPending(true);
    let deleted = false;
    onOutcome(null);
    try {
      await dataProvider.deleteTag(String(tag.id));
      onOutcome({ severity: 'success', text: 'Tag deleted successfully' });
      deleted = true;
    } catch {
      onOutcome({ severity: 'error', text: 'Failed to delete tag' });
    }
    try {
      await onSettled(deleted);
    } finally {
      setPending(false);
      onClose();
    }
  };

  return (
    <Confirm
      isOpen={open}
      loading={pending}
      title={tag ? `Delete tag #${tag.name}` : ''}
      content="Are you sure you want to delete this tag?"
      confirm="Delete"
      confirmColor="warning"
      // the opener may be gone (its tag deleted): the caller puts the focus back
      disableRestoreFocus
      slotProps={{ transition: { onExited } }}
      onConfirm={() => void confirm()}
      onClose={() => {
        if (!pending) onClose();
      }}
    />
  );
}
