import { DataTable, List } from 'react-admin';

/** Manage Users (being built: issue 17). */
export function UserList() {
  return (
    <List exporter={false} title="Manage Users">
      <DataTable bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="name" />
        <DataTable.Col source="email" />
      </DataTable>
    </List>
  );
}
