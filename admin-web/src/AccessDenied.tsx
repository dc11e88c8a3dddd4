import { Alert, AlertTitle, Box, Button, Stack } from '@mui/material';

/** Spec §8 admin denial: a signed-in user without the admin role. */
export function AccessDenied({ onSignOut }: { onSignOut?: () => void }) {
  return (
    <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }}>
      <Alert severity="error" sx={{ maxWidth: 560, width: '100%' }}>
        <AlertTitle>Access Denied</AlertTitle>
        You must be an admin to access this page
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
