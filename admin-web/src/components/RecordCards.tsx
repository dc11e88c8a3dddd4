import { Button, Card, CardActions, CardContent, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import {
  DataTable,
  RecordContextProvider,
  TextField,
  useGetResourceLabel,
  useListContext,
  useRecordContext,
  useResourceContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';

/** Whether the console is on a phone's width (where a list's table would run off the screen). */
export const usePhone = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));

/**
 * On a phone, a list's records as cards, one under another: each card is an article named by
 * `label` (its accessible name), shows `children` in the record's context and `actions` below.
 * A page with no records says so as the table does (nothing matches the search, say).
 */
export function RecordCards<R extends RaRecord>({ label, children, actions }: { label: (record: R) => string; children: ReactNode; actions?: ReactNode }) {
  const { data, isPending } = useListContext<R>();
  if (!isPending && data?.length === 0) return <NoRecords />;
  return (
    <Stack spacing={1.5} sx={{ p: 1 }}>
      {(data ?? []).map((record) => (
        <RecordContextProvider key={record.id} value={record}>
          <Card variant="outlined" component="article" aria-label={label(record)}>
            <CardContent sx={{ pb: actions ? 1 : 2, overflowWrap: 'anywhere' }}>{children}</CardContent>
            {actions && <CardActions sx={{ px: 2, pb: 2 }}>{actions}</CardActions>}
          </Card>
        </RecordContextProvider>
      ))}
    </Stack>
  );
}

/**
 * What react-admin's ListNoResults says, with a "Clear filters" that shows its words: on a phone
 * react-admin's own button shrinks to its icon, and that button has none.
 */
function NoRecords() {
  const translate = useTranslate();
  const resource = useResourceContext();
  const name = useGetResourceLabel()(resource ?? '', 0);
  const list = useListContext();
  const { setFilters } = list;
  // react-admin types the filter `any`: it is the list's filter form's values
  const filtered = Object.keys((list.filterValues as Record<string, unknown> | undefined) ?? {}).length > 0;
  return (
    <CardContent>
      <Typography variant="body2">{translate(filtered ? 'ra.navigation.no_filtered_results' : 'ra.navigation.no_results', { resource, name })}</Typography>
      {filtered && (
        <Button size="small" onClick={() => setFilters({}, [])} sx={{ mt: 1 }}>
          {translate('ra.navigation.clear_filters')}
        </Button>
      )}
    </CardContent>
  );
}

/** A labelled line of a card: what it is, then the value. */
export function CardLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', mt: 0.5 }}>
      <Typography variant="caption" color="text.secondary" sx={{ minWidth: 84, flexShrink: 0 }}>
        {label}
      </Typography>
      <Typography component="div" variant="body2" sx={{ minWidth: 0 }}>
        {children}
      </Typography>
    </Stack>
  );
}

/** A column of a list: its heading (and card line label), the record field it shows, and how. */
export interface ListColumn {
  readonly label: string;
  readonly source?: string;
  /** What the cell shows (default: the text at `source`). */
  readonly field?: ReactNode;
  /** On a card, shown only when the record has a value at `source` (an error, say). */
  readonly optional?: boolean;
  /** The table can be sorted by it (the API sorts by `source`); a column is not, unless it says so. */
  readonly sortable?: boolean;
}

/** A card's line for a column, left out when the column is optional and the record has nothing there. */
function ColumnLine({ column }: { column: ListColumn }) {
  const record = useRecordContext();
  if (column.optional && column.source && !record?.[column.source]) return null;
  return <CardLine label={column.label}>{column.field ?? <TextField source={column.source!} />}</CardLine>;
}

/**
 * A list's records the way the screen allows: a table of `columns` (and `actions` last) on a
 * desktop, and on a phone a card per record with the same columns as lines and the same actions.
 * One description of the columns for both.
 */
export function ColumnsOrCards<R extends RaRecord>({
  columns,
  label,
  actions,
}: {
  columns: readonly ListColumn[];
  label: (record: R) => string;
  actions?: ReactNode;
}) {
  const phone = usePhone();
  if (phone) {
    return (
      <RecordCards<R> label={label} actions={actions}>
        {columns.map((column) => (
          <ColumnLine key={column.label} column={column} />
        ))}
      </RecordCards>
    );
  }
  return (
    <DataTable bulkActionButtons={false} rowClick={false}>
      {columns.map((column) => (
        <DataTable.Col key={column.label} source={column.source} label={column.label} disableSort={!column.sortable}>
          {column.field}
        </DataTable.Col>
      ))}
      {actions && (
        <DataTable.Col label="Actions" disableSort>
          {actions}
        </DataTable.Col>
      )}
    </DataTable>
  );
}
