import { ADMIN_PAGE_SIZE } from '@forum/contracts';
import { DataTable, DateField, DateInput, List, Pagination, SelectInput, TextInput } from 'react-admin';
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

const Column = DataTable.Col<AuditRecord>;

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
      <DataTable bulkActionButtons={false} rowClick={false}>
        <Column source="at" label="Time" disableSort>
          <DateField source="at" showTime />
        </Column>
        <Column source="actor" label="Actor" disableSort>
          <ActorField />
        </Column>
        <Column source="type" label="Type" disableSort>
          <AuditTypeField />
        </Column>
        <Column source="target" label="Target" disableSort>
          <TargetField />
        </Column>
        <Column source="summary" label="Summary" disableSort />
      </DataTable>
    </List>
  );
}
