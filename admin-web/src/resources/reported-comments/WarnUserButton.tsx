import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import { Button } from '@mui/material';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useRecordContext } from 'react-admin';
import { serverMessage, type ForumDataProvider } from '../../dataProvider';
import type { ReportedCommentGroup } from './groupReports';

/**
 * Spec §2/§8 Warn User: a warning to the comment's author, naming the comment. The list does not
 * change (spec §4): the reports stay open until the comment is deleted.
 */
export function WarnUserButton() {
  const comment = useRecordContext<ReportedCommentGroup>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  if (!comment) return null;

  const warn = async () => {
    setPending(true);
    try {
      await dataProvider.warnUser(comment.author.email, { commentId: comment.id });
      notify('Warned! User has been warned', { type: 'success' });
    } catch (error) {
      notify(serverMessage(error, 'Failed to warn user'), { type: 'error' });
    } finally {
      setPending(false);
      setOpen(false);
    }
  };

  return (
    <>
      <Button size="small" variant="outlined" startIcon={<ReportProblemOutlined />} disabled={pending} onClick={() => setOpen(true)}>
        Warn User
      </Button>
      <Confirm
        isOpen={open}
        loading={pending}
        title="Are you sure?"
        content="This will send a warning to the user"
        confirm="Yes, warn the user"
        onConfirm={() => void warn()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
