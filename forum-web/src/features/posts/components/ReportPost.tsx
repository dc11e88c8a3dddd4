import { ErrorCode } from '@forum/contracts';
import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { useToast } from '../../../components/toast/ToastProvider';
import { refusalMessage, serverError } from '../../../lib/http-error';
import { FeedbackSelect, ReportedMark, useReported, type Feedback } from '../../../components/ReportFeedback';
import { useReportPostMutation } from '../api/report-post';

/**
 * Report a post (issue #43), as the comments' Report does: choosing a feedback enables Report; once
 * reported (now, or earlier as the server says: `reportedByMe`) it says "Reported" instead. Not
 * offered on one's own post (the caller leaves it out).
 */
export function ReportPost({ postId, reportedByMe }: { postId: string; reportedByMe: boolean }) {
  const [feedback, setFeedback] = useState<Feedback | ''>('');
  const { reported, setReported, reportedRef } = useReported();
  const [report, { isLoading }] = useReportPostMutation();
  const toast = useToast();

  const submit = async () => {
    if (!feedback) return;
    const result = await report({ postId, feedback });
    if ('data' in result) {
      setReported(true);
      toast({ message: 'Reported! Your report has been submitted' });
    } else if (serverError(result.error)?.code === ErrorCode.ALREADY_REPORTED) {
      setReported(true);
      toast({ message: 'You have already reported this post. It was not reported again.', severity: 'info' });
    } else {
      toast({ message: refusalMessage(result.error) ?? 'Failed to submit report', severity: 'error' });
    }
  };

  if (reported || reportedByMe) return <ReportedMark ref={reportedRef} />;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <FeedbackSelect value={feedback} onChange={setFeedback} label="Feedback on this post" disabled={isLoading} minWidth={170} />
      <Button variant="outlined" color="error" size="small" disabled={!feedback || isLoading} onClick={() => void submit()} aria-label="Report this post">
        {isLoading ? 'Reporting...' : 'Report'}
      </Button>
    </Stack>
  );
}
