import { Chip, type ChipProps } from '@mui/material';
import { Link } from 'react-router-dom';

export const tagPath = (tag: string) => `/tags/${encodeURIComponent(tag)}`;

interface TagChipProps {
  tag: string;
  size?: ChipProps['size'];
  /** -1 for copies that only exist for a visual effect. */
  tabIndex?: number;
}

/** A tag written '#tag' that goes to the posts with that tag. */
export function TagChip({ tag, size = 'small', tabIndex }: TagChipProps) {
  return (
    <Chip
      component={Link}
      to={tagPath(tag)}
      clickable
      label={`#${tag}`}
      size={size}
      color="primary"
      variant="outlined"
      tabIndex={tabIndex}
      sx={{ bgcolor: 'background.paper' }}
    />
  );
}
