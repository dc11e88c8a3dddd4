import { DataTable, DateField, List, TextArrayField } from 'react-admin';

/** Read only for now: moderation verbs come with their issues. */
export function PostList() {
  return (
    <List sort={{ field: 'createdAt', order: 'DESC' }} exporter={false}>
      <DataTable bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="title" />
        <DataTable.Col source="authorName" label="Author" />
        <DataTable.Col source="tags" disableSort>
          <TextArrayField source="tags" />
        </DataTable.Col>
        <DataTable.Col source="createdAt" label="Created at">
          <DateField source="createdAt" showTime />
        </DataTable.Col>
        <DataTable.NumberCol source="upVote" label="Up" />
        <DataTable.NumberCol source="downVote" label="Down" />
      </DataTable>
    </List>
  );
}
