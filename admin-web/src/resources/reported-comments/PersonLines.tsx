import { Box, Typography } from '@mui/material';
import type { ReportedComment } from '@forum/contracts';

/**
 * A person of a report: the name, the email under it. `oneLineEach` keeps each to one line (cut
 * with an ellipsis, whole on hover and for screen readers) so a comment's report lines stay level
 * across the Reporter, Feedback and Reported At columns; otherwise a long email breaks before '@'.
 */
export function PersonLines({ person, oneLineEach = false }: { person: ReportedComment['author']; oneLineEach?: boolean }) {
  const at = person.email.lastIndexOf('@');
  return (
    <Box sx={{ minWidth: oneLineEach ? 0 : 140, maxWidth: oneLineEach ? 180 : 220 }}>
      <Typography variant="body2" noWrap={oneLineEach} title={oneLineEach ? person.name : undefined}>
        {person.name}
      </Typography>
      <Typography variant="caption" color="text.secondary" noWrap={oneLineEach} title={oneLineEach ? person.email : undefined} sx={{ display: 'block' }}>
        {oneLineEach || at <= 0 ? (
          person.email
        ) : (
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            {person.email.slice(0, at)}
            <wbr />
            {person.email.slice(at)}
          </Box>
        )}
      </Typography>
    </Box>
  );
}
