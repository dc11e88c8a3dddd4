import { ADMIN_PAGE_SIZE } from '@forum/contracts';
import { useEffect } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { DateField, DateInput, List, SelectInput, TextInput, type DateInputProps } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { ColumnsOrCards, type ListColumn } from '../../components/RecordCards';
import { ActorField, AuditTypeField, TargetField, type AuditRecord } from './AuditFields';
import { toNotBeforeFrom } from './auditFilterRules';
import { AuditRefusal } from './AuditRefusal';
import { AUDIT_TYPE_CHOICES } from './auditTypes';
import { endOfLocalDay, localDay, startOfLocalDay } from './dateBounds';

// react-admin's filter form hides its inputs' helper texts: To shows its message, under the field
// and as wide as it (width 0 and min-width 100%: the message wraps instead of widening the field)
const showsItsError = {
  '& .MuiFormHelperText-root.Mui-error': { display: 'block', boxSizing: 'border-box', width: 0, minWidth: '100%', mx: 0, px: 1.5 },
} as const;
// the filters line up by their tops, so a message under To does not lift it above the others
const filtersByTheirTops = { '& .RaList-actions form, & .RaFilterForm-filterFormInput': { alignItems: 'flex-start' } } as const;

/** To, not before From: checked again whenever From changes (or comes with the page's address). */
function ToInput(props: DateInputProps) {
  const since: unknown = useWatch({ name: 'since' });
  const { trigger } = useFormContext();
  useEffect(() => {
    void trigger('until');
  }, [since, trigger]);
  return <DateInput {...props} validate={toNotBeforeFrom} sx={showsItsError} />;
}

/**
 * GET /api/admin/audit's filter (react-admin's `filter` JSON): `actor` (an email or a user id),
 * `type`, and the days From and To in the admin's time zone, sent as the instants `since` and
 * `until` (see dateBounds). A To before From says so on To and is not sent (react-admin's filter
 * form sends only valid values).
 */
export const auditFilters = [
  <TextInput key="actor" source="actor" label="Actor (email or id)" alwaysOn resettable />,
  <SelectInput key="type" source="type" label="Type" choices={AUDIT_TYPE_CHOICES} emptyText="All types" alwaysOn />,
  <DateInput key="since" source="since" label="From" alwaysOn format={localDay} parse={startOfLocalDay} />,
  <ToInput key="until" source="until" label="To" alwaysOn format={localDay} parse={endOfLocalDay} />,
];

const ignore = () => {};

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
 * posts it names. A read the server refuses says why in the page (no toast), with no pager.
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
      pagination={<ListPagination />}
      error={<AuditRefusal />}
      // the page says why: no toast of the HTTP status besides
      queryOptions={{ onError: ignore }}
      sx={filtersByTheirTops}
    >
      <ColumnsOrCards<AuditRecord> columns={AUDIT_COLUMNS} label={(entry) => entry.summary} />
    </List>
  );
}
