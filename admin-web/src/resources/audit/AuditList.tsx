import { ADMIN_PAGE_SIZE } from '@forum/contracts';
import { DateField, DateInput, List, Pagination, SelectInput, TextInput } from 'react-admin';
import { ColumnsOrCards, type ListColumn } from '../../components/RecordCards';
import { ActorField, AuditTypeField, TargetField, type AuditRecord } from './AuditFields';
import { AUDIT_TYPE_CHOICES } from './auditTypes';
import { endOfLocalDay, localDay, startOfLocalDay } from './dateBounds';

/**
 * GET /api/admin/audit's filter (react-admin's `filter` JSON): `actor` (an email or a user id),
 * `type`, and the days From and To in the admin's time zone, sent as the instants `since` and
 * `until` (see dateBounds).
 */
export const auditFilters = [
  <TextInput key="actor" source="actor" label="Actor (email or id)" alwaysOn resettable />,
  <SelectInput key="type" source="type" label="Type" choices={AUDIT_TYPE_CHOICES} emptyText="All types" alwaysOn />,
  <DateInput key="since" source="since" label="From" alwaysOn format={localDay} parse={startOfLocalDay} />,
  <DateInput key="until" source="until" label="To" alwaysOn format={localDay} parse={endOfLocalDay} />,
];

const AUDIT_COLUMNS: ListColumn[] = [
  { label: 'Time', source: 'at', field: <DateField source="at" showTime /> },
  { label: 'Actor', source: 'actor', field: <ActorField /> },
  { label: 'Type', source: 'type', field: <AuditTypeField /> },
  { label: 'Target', source: 'target', field: <TargetField /> },
  { label: 'Summary', source: 'summary' },
];

/**
 * The staff action log (/admin/audit): every admin action, newest first, with its time, who did
 * it, what kind it was, what it acted on and what it did; links to the history of the users and
 * posts it names.
 */
export function AuditList() {
  return (
    <List
      exporter={false}
      title="Staff actions"
      actions={false}
      filters={auditFilters}
      perPage={ADMIN_PAGE_SIZE}
      sort={{ field: 'at', order: 'DESC' }}
      pagination={<Pagination rowsPerPageOptions={[ADMIN_PAGE_SIZE, 25, 50]} />}
    >
      <ColumnsOrCards<AuditRecord> columns={AUDIT_COLUMNS} label={(entry) => entry.summary} />
    </List>
  );
}
