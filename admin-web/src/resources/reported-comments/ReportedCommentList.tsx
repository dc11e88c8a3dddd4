import { UNPAGED_LIST_MAX } from '@forum/contracts';
import { List, TopToolbar } from 'react-admin';
import { NoReportedComments } from './NoReportedComments';
import { ReportedCommentTable } from './ReportedCommentTable';
import { ReportsBadge } from './ReportsBadge';
import { ReportsError } from './ReportsError';

const ignore = () => {};

/**
 * Spec §2 Reported Comments (/admin/reported-comments): the open reports, as many as one read
 * gives (the API's limit), grouped by comment; Delete and Warn User on each.
 */
export function ReportedCommentList() {
  return (
    <List
      exporter={false}
      title="Reported Comments"
      perPage={UNPAGED_LIST_MAX}
      sort={{ field: 'reportedAt', order: 'DESC' }}
      pagination={false}
      actions={
        <TopToolbar>
          <ReportsBadge />
        </TopToolbar>
      }
      empty={<NoReportedComments />}
      error={<ReportsError />}
      // the error state says it on the page: no toast besides
      queryOptions={{ onError: ignore }}
    >
      <ReportedCommentTable />
    </List>
  );
}
