import { DataTable, List } from 'react-admin';

/** Reported Comments (being built: issue 17). */
export function ReportedCommentList() {
  return (
    <List exporter={false} title="Reported Comments">
      <DataTable bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="text" label="Comment" />
      </DataTable>
    </List>
  );
}
