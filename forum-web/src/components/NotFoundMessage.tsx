import { Button, Stack, Typography } from '@mui/material';
import { Link } from 'react-router-dom';

interface NotFoundMessageProps {
  title?: string;
  message?: string;
}

export function NotFoundMessage({
  title = 'Page not found',
  message = 'The page you are looking for does not exist or has moved.',
}: NotFoundMessageProps) {
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: { xs: 6, md: 10 } }}>
      <Typography variant="h2" component="p" aria-hidden sx={{ fontWeight: 800, color: 'primary.main' }}>
        404
      </Typography>
      <Typography variant="h4" component="h1">
        {title}
      </Typography>
      <Typography color="text.secondary">{message}</Typography>
      <Button component={Link} to="/" variant="contained">
        Back to Home
      </Button>
    </Stack>
  );
}
