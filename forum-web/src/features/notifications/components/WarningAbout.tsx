import type { WarningItem } from '@forum/contracts';
import { Box, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';

/**
 * What a warning about a comment is about: the post it was written on (linked while the post is
 * there) and the start of the comment, quoted. Nothing for a warning about nothing in particular.
 */
export function WarningAbout({ warning, onNavigate }: { warning: WarningItem; onNavigate: () => void }) {
  if (warning.postId === undefined && warning.commentQuote === undefined) return null;
  return (
    <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
      {warning.postId !== undefined && (
        <Box component="span" sx={{ display: 'block' }}>
          About your comment on{' '}
          {warning.postTitle !== undefined ? (
            <Link
              component={RouterLink}
              to={`/post/${encodeURIComponent(warning.postId)}`}
              onClick={onNavigate}
              sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
            >
              {warning.postTitle}
            </Link>
          ) : (
            'a post that was deleted'
          )}
          {warning.commentQuote !== undefined && ':'}
        </Box>
      )}
      {warning.commentQuote !== undefined && (
        <Typography
          component="q"
          variant="body2"
          sx={{ display: 'block', mt: 0.25, pl: 1, borderLeft: 2, borderColor: 'divider', fontStyle: 'italic', overflowWrap: 'anywhere', quotes: 'none' }}
        >
          {`“${warning.commentQuote}”`}
        </Typography>
      )}
    </Box>
  );
}
