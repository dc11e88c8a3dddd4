import { sxList } from '@forum/web-ui';
import { Button, CircularProgress, type ButtonProps } from '@mui/material';
import type { MouseEvent } from 'react';

const ignore = (event: MouseEvent) => event.preventDefault();

/**
 * A Button that waits for its request without leaving the tab order: while `busy` it says so
 * (aria-disabled, a spinner in place of its icon) and ignores clicks, Enter and Space, yet keeps
 * the focus a keyboard user left on it. A disabled button would lose it, and the browser would
 * move the focus back to the start of the page (MUI's `loading` disables the button). It keeps its
 * colours too: its busy label ('Sending...', 'Processing...') is read as well as its idle one.
 */
export function BusyButton({ busy, onClick, startIcon, sx, ...props }: ButtonProps & { busy: boolean }) {
  return (
    <Button
      {...props}
      aria-disabled={busy || undefined}
      onClick={busy ? ignore : onClick}
      startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : startIcon}
      sx={[busy && { cursor: 'progress' }, ...sxList(sx)]}
    />
  );
}
