import { DataTable, List } from 'react-admin';

/** Contact messages (being built: issue 17). */
export function ContactMessageList() {
  return (
    <List exporter={false} title="Contact messages">
      <DataTable bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="name" />
        <DataTable.Col source="message" />
      </DataTable>
    </List>
  );
}
