import { ErrorCode, type CommentItem } from '@forum/contracts';
import { Box, Button, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { PersonAvatar } from '@forum/web-ui';
import { AuthorName } from '../../../components/AuthorName';
import { EmailText } from '../../../components/EmailText';
import { useToast } from '../../../components/toast/ToastProvider';
import { HiddenNotice } from '../../../components/ModerationMarks';
import { refusalMessage, serverError } from '../../../lib/http-error';
import { FeedbackSelect, ReportedMark, useReported, type Feedback } from '../../../components/ReportFeedback';
import { useReportCommentMutation } from '../api/report-comment';
import { commentPreview } from '../hooks/comment-preview';
import { CommentDialog } from './CommentDialog';
import { CommentEdited } from './CommentEdited';
import { EditCommentButton } from './EditComment';

/** The Feedback and Action cells of a comment that is not reported from here: what `children` says, where Report would be. */
function ActionCells({ children }: { children: ReactNode }) {
  return (
    <>
      <TableCell />
      <TableCell>{children}</TableCell>
    </>
  );
}

/**
 * One comment of the comments table (spec §2 Post Comments, §4 Comment report): choosing a
 * feedback enables Report. A comment this reader has reported (now, or earlier as the server
 * says: `reportedByMe`) says "Reported" where Report was, and the reader's own comment says
 * "Your comment": neither is reported (again), the server refuses both.
 */
export function CommentRow({ comment }: { comment: CommentItem }) {
  const [feedback, setFeedback] = useState<Feedback | ''>('');
  const { reported, setReported, reportedRef } = useReported();
  const [reading, setReading] = useState(false);
  const [report, { isLoading }] = useReportCommentMutation();
  const toast = useToast();
  const { preview, cut } = commentPreview(comment.text);

  const submit = async () => {
    if (!feedback) return;
    const result = await report({ commentId: comment._id, feedback });
    if ('data' in result) {
      setFeedback('');
      setReported(true);
      toast({ message: 'Reported! Your report has been submitted' });
    } else if (serverError(result.error)?.code === ErrorCode.ALREADY_REPORTED) {
      setFeedback('');
      setReported(true);
      toast({ message: 'You have already reported this comment. It was not reported again.', severity: 'info' });
    } else {
      toast({ message: refusalMessage(result.error) ?? 'Failed to submit report', severity: 'error' });
    }
  };

  return (
    <TableRow>
      <TableCell>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <PersonAvatar name={comment.authorName} photo={comment.authorPhoto} size={36} />
          <Box sx={{ minWidth: 0 }}>
            <AuthorName name={comment.authorName} authorId={comment.authorId} variant="subtitle2" component="div" />
            {comment.authorEmail && <EmailText email={comment.authorEmail} variant="caption" component="div" color="text.secondary" />}
          </Box>
        </Stack>
      </TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>
        {preview}
        {cut && (
          <>
            {' '}
            <Button size="small" onClick={() => setReading(true)} sx={{ p: 0, minWidth: 0, verticalAlign: 'baseline', textTransform: 'none' }}>
              Read more
            </Button>
            <CommentDialog comment={comment} open={reading} onClose={() => setReading(false)} />
          </>
        )}
        {comment.editedAt && (
          <Typography variant="caption" component="div" color="text.secondary">
            <CommentEdited commentId={comment._id} editedAt={comment.editedAt} />
          </Typography>
        )}
        {comment.hidden && <HiddenNotice hidden={comment.hidden} what="comment" mine={comment.byMe === true} sx={{ mt: 1 }} />}
      </TableCell>
      {comment.byMe ? (
        <ActionCells>
          <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
              Your comment
            </Typography>
            <EditCommentButton comment={comment} />
          </Stack>
        </ActionCells>
      ) : reported || comment.reportedByMe ? (
        <ActionCells>
          <ReportedMark ref={reportedRef} />
        </ActionCells>
      ) : (
        <>
          <TableCell>
            <FeedbackSelect value={feedback} onChange={setFeedback} label={`Feedback on the comment by ${comment.authorName}`} disabled={isLoading} />
          </TableCell>
          <TableCell>
            <Button variant="contained" color="error" size="small" disabled={!feedback || isLoading} onClick={() => void submit()}>
              {isLoading ? 'Reporting...' : 'Report'}
            </Button>
          </TableCell>
        </>
      )}
    </TableRow>
  );
}
