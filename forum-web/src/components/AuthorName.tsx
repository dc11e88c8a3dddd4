import { profilePath } from '@forum/contracts';
import { Link, Typography, type LinkProps, type SxProps, type Theme, type TypographyProps } from '@mui/material';
import type { ElementType } from 'react';
import { Link as RouterLink } from 'react-router-dom';

interface AuthorNameProps {
  name: string;
  /** The author's id (the reads' authorId); null once they are erased: then the name is plain text. */
  authorId: string | null;
  variant?: TypographyProps['variant'];
  component?: ElementType;
  /** 'always' where the name stands in a line of other words, so the link is told apart by more than its colour. */
  underline?: LinkProps['underline'];
  sx?: SxProps<Theme>;
}

/**
 * An author's name beside what they wrote: a link to their public profile (by id, which stays theirs
 * when they change their handle). Positioned above a card's stretched link, so it stays clickable there.
 */
export function AuthorName({ name, authorId, variant, component = 'span', underline = 'hover', sx }: AuthorNameProps) {
  return (
    <Typography variant={variant} component={component} sx={sx}>
      {authorId === null ? (
        name
      ) : (
        <Link component={RouterLink} to={profilePath(authorId)} color="inherit" underline={underline} sx={{ position: 'relative', zIndex: 1 }}>
          {name}
        </Link>
      )}
    </Typography>
  );
}
