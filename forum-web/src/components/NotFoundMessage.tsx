import { Button, Stack, Typography } from '@mui/material';
import { Link } from 'react-router-dom';

interface NotFoundMessageProps {
  title?: string;
  message?: string;
  /** The status the page stands for: 404 (nothing there), 410 (deleted). */
  status?: 404 | 410;
}

/** The 404 page's content (spec §2 unknown route: a 'Back to Home' link), also for a thing a page asked the server for in vain. */
export function NotFoundMessage({
  title = 'Page not found',
  message = 'The page you are looking for does not exist or has moved.',
  status = 404,
}: NotFoundMessageProps) {
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: { xs: 6, md: 10 } }}>
      <title>{`${title} · Forum`}</title>
      <Typography variant="h2" component="p" aria-hidden sx={{ fontWeight: 800, color: 'primary.main' }}>
        {status}
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

/** A post that does not exist: the id cannot be one, or the server has no such post. */
export const PostNotFound = () => <NotFoundMessage title="Post not found" message="This post does not exist or was removed." />;

/** A post that was there and was deleted (the server's 410). */
export const PostGone = () => <NotFoundMessage status={410} title="Post deleted" message="This post was deleted." />;
