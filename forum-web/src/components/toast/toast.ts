import type { AlertColor } from '@mui/material';

/** What a toast says (ToastProvider shows it, ToastSnackbar draws it). */
export interface Toast {
  message: string;
  severity?: AlertColor;
}

/** Spec §9: notifications at the top right, closing after 5 s, paused while hovered or the window is in the background. */
export const TOAST_DURATION_MS = 5000;
