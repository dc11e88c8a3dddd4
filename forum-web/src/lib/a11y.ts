import type { SxProps, Theme } from '@mui/material/styles';

/** Hidden from sight, still read by screen readers (labels next to icon-only numbers). */
export const visuallyHidden: SxProps<Theme> = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
};
