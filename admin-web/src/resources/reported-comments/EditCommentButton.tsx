import EditOutlined from '@mui/icons-material/EditOutlined';
import { COMMENT_RULE } from '@forum/contracts';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useRecordContext } from 'react-admin';
import { EditWithReasonDialog } from '../../components/EditWithReasonDialog';
import { requiredText } from '../../components/requiredText';
import { MarkdownInput } from '../../components/MarkdownInput';
import type { ForumDataProvider } from '../../dataProvider';
import { commentStart, type ReportedCommentGroup } from './groupReports';

const validateText = [requiredText('Comment must not be empty')];

/** Edit on a reported comment: its text and a reason (required: it is someone else's, unless the admin wrote it). */
export function EditCommentButton() {
  const comment = useRecordContext<ReportedCommentGroup>();
  const [open, setOpen] = useState(false);
  const dataProvider = useDataProvider<ForumDataProvider>();
  if (!comment) return null;
  return (
    <>
      <Button
        size="small"
        startIcon={<EditOutlined />}
        aria-label={`Edit the comment: ${commentStart(comment)}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Edit
      </Button>
      {open && (
        <EditWithReasonDialog
          open
          onClose={() => setOpen(false)}
          title={`Edit the comment by ${comment.author.name}`}
          authorEmail={comment.author.email}
          values={{ text: comment.text }}
          save={(edit) => dataProvider.editComment(comment.id, { text: edit.text ?? comment.text, ...(edit.reason && { reason: edit.reason }) })}
          fields={<MarkdownInput source="text" label="Comment" validate={validateText} rule={COMMENT_RULE} multiline minRows={4} maxRows={14} />}
        />
      )}
    </>
  );
}
