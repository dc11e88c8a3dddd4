import { ErrorCode } from '@forum/contracts';
import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { api } from '../../../lib/api';
import { contract } from '../../../lib/contract';
import { serverError } from '../../../lib/http-error';

/** POST /api/unsubscribe?token=…: no sign-in; the token the email's link carries says whose emails and which. */
const unsubscribeApi = api.injectEndpoints({
  endpoints: (build) => ({
    unsubscribe: build.mutation<{ kinds: string[] }, string>({
      query: (token) => ({ url: 'unsubscribe', method: 'POST', params: { token } }),
      responseSchema: contract('Unsubscribed'),
    }),
  }),
});

/**
 * /unsubscribe?token=… (an email's unsubscribe link): one button stops the emails of the kinds the
 * email was of (they stay in the app), then it says so; a link the forum did not send, or one
 * cut short, says that.
 */
export function UnsubscribePage() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [unsubscribe, { isLoading, isSuccess, error }] = unsubscribeApi.useUnsubscribeMutation();
  const [sent, setSent] = useState(false);
  const invalid = token === '' || serverError(error)?.code === ErrorCode.UNSUBSCRIBE_LINK_INVALID;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="unsubscribe-heading" sx={{ maxWidth: 560, mx: 'auto', p: { xs: 2.5, md: 4 } }}>
      <title>Unsubscribe · Forum</title>
      <Typography id="unsubscribe-heading" variant="h5" component="h1" sx={{ fontWeight: 700, mb: 1.5 }}>
        Unsubscribe
      </Typography>
      {isSuccess ? (
        <Stack spacing={2}>
          <Alert severity="success">You are unsubscribed: the forum will not email you these notifications any more. You still see them in the app.</Alert>
          <Button component={RouterLink} to="/dashboard/notification-preferences" sx={{ alignSelf: 'flex-start' }}>
            Notification preferences
          </Button>
        </Stack>
      ) : invalid ? (
        <Alert severity="error">
          This unsubscribe link is not valid: it may be incomplete. Open the link from the email again, or change your notification preferences once signed in.
        </Alert>
      ) : (
        <Stack spacing={2}>
          <Typography>
            Stop the emails of this kind of notification? You will still see them in the app, and can change this in your notification preferences.
          </Typography>
          {sent && error && <Alert severity="error">That did not work. Try again in a moment.</Alert>}
          <Button
            variant="contained"
            disabled={isLoading}
            onClick={() => {
              setSent(true);
              void unsubscribe(token);
            }}
            sx={{ alignSelf: 'flex-start' }}
          >
            Unsubscribe
          </Button>
        </Stack>
      )}
    </Paper>
  );
}
