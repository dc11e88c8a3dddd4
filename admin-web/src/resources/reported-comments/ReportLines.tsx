import { Box, Chip, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useRecordContext } from 'react-admin';
import { FEEDBACK_LABELS, type Report, type ReportedCommentGroup } from './groupReports';
import { PersonLines } from './PersonLines';

/** The height of a report line in every column: a name over an email fits. */
const LINE_HEIGHT = 48;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** One column of a comment's reports: a line per report, the same height in every column so they read across. */
function ReportLines({ line }: { line: (report: Report) => ReactNode }) {
  const comment = useRecordContext<ReportedCommentGroup>();
  if (!comment) return null;
  return (
    <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {comment.reports.map((report) => (
        <Box component="li" key={report.reportId} sx={{ height: LINE_HEIGHT, display: 'flex', alignItems: 'center' }}>
          {line(report)}
        </Box>
      ))}
    </Box>
  );
}

export const ReportersField = () => <ReportLines line={(report) => <PersonLines person={report.reporter} oneLineEach />} />;

export const FeedbackField = () => <ReportLines line={(report) => <Chip size="small" variant="outlined" label={FEEDBACK_LABELS[report.feedback]} />} />;

/** The date over the time, as the reporter's name is over their email. */
export const ReportedAtField = () => (
  <ReportLines
    line={(report) => (
      <Box component="time" dateTime={report.reportedAt} sx={{ whiteSpace: 'nowrap' }}>
        <Typography variant="body2">{dateFormat.format(new Date(report.reportedAt))}</Typography>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          {timeFormat.format(new Date(report.reportedAt))}
        </Typography>
      </Box>
    )}
  />
);
