import { ADMIN_PAGE_SIZE } from '@forum/contracts';
import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import { Box, Tab, Tabs, Typography } from '@mui/material';
import { List, useListContext } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { ColumnsOrCards, type ListColumn } from '../../components/RecordCards';
import type { QueueRecord } from '../../dataProvider';
import { QueueActions, UnhideAction } from './QueueActions';
import { AuthorField, FirstReportedField, HandledField, ItemField, itemLabel, ReportsField } from './QueueFields';

type Status = 'open' | 'handled';

const COMMON_COLUMNS: ListColumn[] = [
  { label: 'Reported', field: <ItemField /> },
  { label: 'Author', field: <AuthorField /> },
  { label: 'Reports', field: <ReportsField /> },
  { label: 'First reported', field: <FirstReportedField /> },
];
// handled rows say when they were handled instead of when first reported (the table fits a desktop's width)
const HANDLED_COLUMNS: ListColumn[] = [...COMMON_COLUMNS.slice(0, 3), { label: 'Handled', field: <HandledField /> }];

const EMPTY: Record<Status, { title: string; body: string }> = {
  open: { title: 'Nothing to review', body: 'When members report posts or comments, they will appear here, oldest first.' },
  handled: { title: 'Nothing handled yet', body: 'Reports you and other staff handle, and every post or comment staff hid, are kept here, newest first.' },
};

/** The Open / Handled tabs: the list's `status` filter. */
function StatusTabs({ status }: { status: Status }) {
  const { setFilters } = useListContext();
  return (
    <Tabs value={status} onChange={(_event, value: Status) => setFilters({ status: value }, {})} aria-label="Reports" sx={{ px: 2 }}>
      <Tab value="open" label="Open" />
      <Tab value="handled" label="Handled" />
    </Tabs>
  );
}

function QueueContent() {
  const { data, isPending, ...list } = useListContext<QueueRecord>();
  const filterValues = list.filterValues as { status?: string };
  const status: Status = filterValues.status === 'handled' ? 'handled' : 'open';
  const empty = !isPending && data?.length === 0;
  return (
    <>
      <StatusTabs status={status} />
      {empty ? (
        <Box role="status" sx={{ textAlign: 'center', py: 8, px: 2 }}>
          <TaskAltOutlined color="success" sx={{ fontSize: 56, mb: 1 }} aria-hidden />
          <Typography variant="h6" component="p">
            {EMPTY[status].title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {EMPTY[status].body}
          </Typography>
        </Box>
      ) : status === 'open' ? (
        <ColumnsOrCards<QueueRecord> columns={COMMON_COLUMNS} label={itemLabel} actions={<QueueActions />} />
      ) : (
        <ColumnsOrCards<QueueRecord> columns={HANDLED_COLUMNS} label={itemLabel} actions={<UnhideAction />} />
      )}
    </>
  );
}

/**
 * The moderators' queue (/admin/reports, issue #43.2): reported posts and comments, one row per item
 * with its reports; Open (oldest first) with the actions, and Handled (newest handling first) with
 * how, by whom, when and why. Cards on a phone.
 */
export function ReportQueueList() {
  return (
    <List
      title="Reports"
      exporter={false}
      actions={false}
      empty={false}
      filterDefaultValues={{ status: 'open' }}
      perPage={ADMIN_PAGE_SIZE}
      pagination={<ListPagination />}
    >
      <QueueContent />
    </List>
  );
}
