import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { Button } from '@mui/material';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { serverMessage, type ForumDataProvider } from '../../dataProvider';
import type { ReportedCommentGroup } from './groupReports';

/**
 * Spec §2/§8 Delete: confirmed, pessimistic; the comment goes and with it every report of it,
 * so the list is read again (at the command's position) and its row is gone.
 */
export function DeleteCommentButton() {
  const comment = useRecordContext<ReportedCommentGroup>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  if (!comment) return null;

  const remove = async () => {
    setPending(true);
    try {
      await dataProvider.deleteComment(comment.id);
      notify('Deleted! Comment deleted successfully', { type: 'success' });
      refresh();
    } catch (error) {
      notify(serverMessage(error, 'Failed to delete comment'), { type: 'error' });
    } finally {
      setPending(false);
      setOpen(false);
    }
  };

  return (
    <>
      <Button size="small" color="error" variant="outlined" startIcon={<DeleteOutlined />} disabled={pending} onClick={() => setOpen(true)}>
        Delete
      </Button>
      <Confirm
        isOpen={open}
        loading={pending}
        title="Are you sure?"
        content="You won't be able to revert this!"
        confirm="Yes, delete it!"
        confirmColor="warning"
        onConfirm={() => void remove()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
