import { Box, Card, CardActions, CardContent, Chip, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useMemo } from 'react';
import { DataTable, RecordContextProvider, useListContext, useRecordContext } from 'react-admin';
import { CommentField } from './CommentField';
import { DeleteCommentButton } from './DeleteCommentButton';
import { EditCommentButton } from './EditCommentButton';
import { FEEDBACK_LABELS, groupReports, type ReportedCommentGroup, type ReportRecord } from './groupReports';
import { PersonLines } from './PersonLines';
import { FeedbackField, ReportedAtField, ReportersField } from './ReportLines';
import { WarnUserButton } from './WarnUserButton';

const Column = DataTable.Col<ReportedCommentGroup>;

function AuthorField() {
  const comment = useRecordContext<ReportedCommentGroup>();
  return comment ? <PersonLines person={comment.author} /> : null;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** On a phone, a card per comment: the comment, its author, each report on a line, the two actions. */
function ReportedCommentCards({ comments }: { comments: ReportedCommentGroup[] }) {
  return (
    <Stack spacing={1.5} sx={{ p: 1 }}>
      {comments.map((comment) => (
        <RecordContextProvider key={comment.id} value={comment}>
          <Card variant="outlined" component="article" aria-label={`Comment by ${comment.author.name}`}>
            <CardContent sx={{ pb: 1 }}>
              <CommentField />
              <Box sx={{ mt: 1.5 }}>
                <Typography variant="overline" component="p" color="text.secondary">
                  Author
                </Typography>
                <PersonLines person={comment.author} />
              </Box>
              <Typography variant="overline" component="p" color="text.secondary" sx={{ mt: 1 }}>
                Reports
              </Typography>
              <Stack component="ul" spacing={1} sx={{ listStyle: 'none', m: 0, p: 0 }}>
                {comment.reports.map((report) => (
                  <Stack component="li" key={report.reportId} direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
                    <PersonLines person={report.reporter} oneLineEach />
                    <Stack sx={{ alignItems: 'flex-end', flexShrink: 0 }}>
                      <Chip size="small" variant="outlined" label={FEEDBACK_LABELS[report.feedback]} />
                      <Typography component="time" dateTime={report.reportedAt} variant="caption" color="text.secondary">
                        {dateTime.format(new Date(report.reportedAt))}
                      </Typography>
                    </Stack>
                  </Stack>
                ))}
              </Stack>
            </CardContent>
            <CardActions sx={{ px: 2, pb: 2, gap: 1, flexWrap: 'wrap' }}>
              <EditCommentButton />
              <DeleteCommentButton />
              <WarnUserButton />
            </CardActions>
          </Card>
        </RecordContextProvider>
      ))}
    </Stack>
  );
}

/**
 * The reports read, one row per comment (beyond the spec, which lists a row per report): every
 * reporter of a comment beside it, and one Delete settles them all. On a phone, a card per comment.
 */
export function ReportedCommentTable() {
  const { data, total, isPending } = useListContext<ReportRecord>();
  const comments = useMemo(() => groupReports(data ?? []), [data]);
  const read = data?.length ?? 0;
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  return (
    <>
      {phone ? (
        <ReportedCommentCards comments={comments} />
      ) : (
        <DataTable bulkActionButtons={false} rowClick={false} data={comments} total={comments.length} isPending={isPending}>
          <Column label="Comment" disableSort>
            <CommentField />
          </Column>
          <Column label="Author" disableSort>
            <AuthorField />
          </Column>
          <Column label="Reporter" disableSort>
            <ReportersField />
          </Column>
          <Column label="Feedback" disableSort>
            <FeedbackField />
          </Column>
          <Column source="reportedAt" label="Reported At" sortByOrder="DESC">
            <ReportedAtField />
          </Column>
          <Column label="Actions" disableSort>
            <Stack spacing={1} sx={{ alignItems: 'stretch', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}>
              <EditCommentButton />
              <DeleteCommentButton />
              <WarnUserButton />
            </Stack>
          </Column>
        </DataTable>
      )}
      {total !== undefined && read < total && (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
          Showing {read} of {total} reports: the rest appear as these are settled.
        </Typography>
      )}
    </>
  );
}
