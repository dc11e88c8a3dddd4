import { Button, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

interface ComingSoonPageProps {
  title: ReactNode;
  message: string;
}

/** Stands in for a screen whose issue has not landed yet, so no link leads to a 404. */
export function ComingSoonPage({ title, message }: ComingSoonPageProps) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 } }}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800, overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        <Typography color="text.secondary">{message}</Typography>
        <Button component={Link} to="/" variant="contained">
          Back to Home
        </Button>
      </Stack>
    </Paper>
  );
}
