import { Button, Container, Stack, Typography } from '@mui/material';

/** Shown in place of a page whose rendering threw (RootLayout's error boundary); the bar and footer stay. */
export function PageError() {
  return (
    <Container maxWidth="sm">
      <Stack spacing={2} sx={{ py: 10, alignItems: 'center', textAlign: 'center' }}>
        <Typography variant="h4" component="h1">
          Something went wrong
        </Typography>
        <Typography color="text.secondary">Please reload the page, or go back to the home page.</Typography>
        {/* A full load, since the app's own state may be what broke. */}
        <Button href="/" variant="contained">
          Back to Home
        </Button>
      </Stack>
    </Container>
  );
}
