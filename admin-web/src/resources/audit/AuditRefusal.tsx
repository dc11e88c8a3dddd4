import { AUDIT_EMPTY_SPAN } from '@forum/contracts';
import { Alert, Button } from '@mui/material';
import { HttpError, useListContext, useTranslate } from 'react-admin';
import { serverFieldMessages, serverMessage } from '../../dataProvider';
import { TO_BEFORE_FROM } from './auditFilterRules';

/** Why the server refused the log's filter, in the page's words where it has them (its From and To). */
function refusalOf(error: unknown): string {
  const fields = serverFieldMessages(error);
  if (fields.until === AUDIT_EMPTY_SPAN) return TO_BEFORE_FROM;
  return Object.values(fields)[0] ?? serverMessage(error, 'Failed to load staff actions');
}

/**
 * In place of the log when its read failed: why, and Clear filters when the server refused the
 * filter (an address with From after To, say), else Retry. The toast react-admin would show says
 * only the HTTP status.
 */
export function AuditRefusal() {
  const { error, setFilters, refetch, isFetching } = useListContext();
  const translate = useTranslate();
  const refused = error instanceof HttpError && error.status === 400;
  return (
    <Alert
      severity="error"
      sx={{ m: 2 }}
      action={
        refused ? (
          <Button color="inherit" size="small" onClick={() => setFilters({}, [])}>
            {translate('ra.navigation.clear_filters')}
          </Button>
        ) : (
          <Button color="inherit" size="small" disabled={isFetching} onClick={() => void refetch()}>
            Retry
          </Button>
        )
      }
    >
      {refusalOf(error)}
    </Alert>
  );
}
