import { Alert, AlertTitle, Box, Button, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';

/** How long the message stays before the forum opens (long enough to read it). */
export const ACCESS_DENIED_REDIRECT_MS = 5000;

/** Spec §8 admin denial: a signed-in user without the admin role reads why, and is sent to the forum. */
export function AccessDenied({ onSignOut }: { onSignOut?: () => void }) {
  useEffect(() => {
    const timer = setTimeout(() => window.location.assign('/'), ACCESS_DENIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }}>
      <Alert severity="error" sx={{ maxWidth: 560, width: '100%' }}>
        <AlertTitle>Access Denied</AlertTitle>
        You must be an admin to access this page
        <Typography variant="body2" sx={{ mt: 1 }}>
          Taking you back to the forum in a few seconds.
        </Typography>
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          <Button variant="contained" color="error" size="small" href="/">
            Back to the forum
          </Button>
          {onSignOut && (
            <Button color="inherit" size="small" onClick={onSignOut}>
              Sign out
            </Button>
          )}
        </Stack>
      </Alert>
    </Box>
  );
}
