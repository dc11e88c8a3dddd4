import { DataTable, List } from 'react-admin';

/** Projections (being built: issue 17). */
export function ProjectionList() {
  return (
    <List exporter={false} title="Projections">
      <DataTable bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="name" />
      </DataTable>
    </List>
  );
}
