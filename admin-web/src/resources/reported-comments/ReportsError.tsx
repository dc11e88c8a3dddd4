import { Alert, Button } from '@mui/material';
import { useListContext } from 'react-admin';
import { serverMessage } from '../../dataProvider';

/** Spec §2/§8: the list failed to load: the server's or the client's message, and Retry reads it again. */
export function ReportsError() {
  const { error, refetch, isFetching } = useListContext();
  const message = serverMessage(error, error instanceof Error && error.message ? error.message : 'Failed to load reported comments');
  return (
    <Alert
      severity="error"
      sx={{ m: 2 }}
      action={
        <Button color="inherit" size="small" disabled={isFetching} onClick={() => void refetch()}>
          Retry
        </Button>
      }
    >
      {message}
    </Alert>
  );
}
