import { DataTable, List } from 'react-admin';

/** Staff actions (being built: issue 17). */
export function AuditList() {
  return (
    <List exporter={false} title="Staff actions">
      <DataTable bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="summary" />
      </DataTable>
    </List>
  );
}
