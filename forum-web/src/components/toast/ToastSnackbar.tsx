import { Alert, Snackbar } from '@mui/material';
import { useLayoutEffect, useRef, useState } from 'react';
import { freePlace } from './free-place';
import { TOAST_DURATION_MS, type Toast } from './toast';

/**
 * The toast of `ToastProvider` (its own chunk): top right (spec §9), 5 s, paused while hovered or the window is in the
 * background. It covers nothing of the page it can avoid (freePlace): placed once it is drawn (its size known), and
 * again as the page under it changes (a toast often comes with a navigation, whose page arrives after it).
 */
/**
 * On a phone a toast spans the screen and often finds no free place: it then lies over the app bar's
 * band (freePlace). Two lines of text fit that band (56 px) without the Alert's usual padding, so
 * the toast hides the bar, not the page.
 */
const COMPACT_ON_PHONES = { width: '100%', py: { xs: 0, sm: '6px' }, '& .MuiAlert-message': { py: { xs: '6px', sm: '8px' } } };

export default function ToastSnackbar({
  toast,
  open,
  onClose,
}: {
  toast: Toast & { key: number };
  open: boolean;
  onClose: (event?: unknown, reason?: string) => void;
}) {
  const [top, setTop] = useState<number>();
  const root = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      if (root.current) setTop(freePlace(root.current.getBoundingClientRect()));
    };
    place();
    const main = document.querySelector('main');
    if (!main) return;
    // the page under it changes (its content arrives, the screen turns): placed again at the next frame
    let frame = 0;
    const again = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(place);
    };
    const changes = new MutationObserver(again);
    changes.observe(main, { childList: true, subtree: true, characterData: true });
    const sizes = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(again);
    sizes?.observe(main);
    window.addEventListener('resize', again);
    return () => {
      cancelAnimationFrame(frame);
      changes.disconnect();
      sizes?.disconnect();
      window.removeEventListener('resize', again);
    };
  }, [open, toast.key]);

  return (
    <Snackbar
      ref={root}
      key={toast.key}
      open={open}
      autoHideDuration={TOAST_DURATION_MS}
      onClose={onClose}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      sx={top === undefined ? { mt: { xs: 7, sm: 8 } } : { top: { xs: top, sm: top } }}
    >
      <Alert onClose={onClose} severity={toast.severity ?? 'success'} variant="filled" sx={COMPACT_ON_PHONES}>
        {toast.message}
      </Alert>
    </Snackbar>
  );
}
