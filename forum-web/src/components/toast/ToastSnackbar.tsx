import { Alert, Snackbar } from '@mui/material';
import { useLayoutEffect, useState } from 'react';
import { TOAST_DURATION_MS, type Toast } from './ToastProvider';

const GAP_PX = 8;

/**
 * Where a toast's top goes: below the app bar, and below the page's title (its h1, with the
 * actions on its line, such as My Posts' 'Add New Post') while that is near the top of the screen.
 */
function topClearOfTitle(): number {
  const bar = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
  const title = document.querySelector('main h1')?.getBoundingClientRect();
  const belowTitle = title && title.bottom > bar && title.bottom < window.innerHeight / 2 ? title.bottom : 0;
  return Math.max(bar, belowTitle) + GAP_PX;
}

/**
 * The toast of `ToastProvider` (its own chunk): top right, 5 s, paused while hovered or the window is in the background.
 * It covers neither the navigation bar nor the page's title and actions: placed when it opens, and again while the
 * page it came with is still arriving (a toast often comes with a navigation).
 */
export default function ToastSnackbar({ toast, open, onClose }: { toast: Toast & { key: number }; open: boolean; onClose: (event?: unknown, reason?: string) => void }) {
  const [top, setTop] = useState<number>();
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => setTop(topClearOfTitle());
    place();
    const main = document.querySelector('main');
    if (!main || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(place);
    observer.observe(main);
    return () => observer.disconnect();
  }, [open, toast.key]);

  return (
    <Snackbar
      key={toast.key}
      open={open}
      autoHideDuration={TOAST_DURATION_MS}
      onClose={onClose}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      sx={top === undefined ? { mt: { xs: 7, sm: 8 } } : { top: { xs: top, sm: top } }}
    >
      <Alert onClose={onClose} severity={toast.severity ?? 'success'} variant="filled" sx={{ width: '100%' }}>
        {toast.message}
      </Alert>
    </Snackbar>
  );
}
