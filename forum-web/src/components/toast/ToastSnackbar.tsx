import { Alert, Snackbar } from '@mui/material';
import { TOAST_DURATION_MS, type Toast } from './ToastProvider';

/** The toast of `ToastProvider` (its own chunk): top right, 5 s, paused while hovered or the window is in the background. */
export default function ToastSnackbar({ toast, open, onClose }: { toast: Toast & { key: number }; open: boolean; onClose: (event?: unknown, reason?: string) => void }) {
  return (
    <Snackbar key={toast.key} open={open} autoHideDuration={TOAST_DURATION_MS} onClose={onClose} anchorOrigin={{ vertical: 'top', horizontal: 'right' }} sx={{ mt: { xs: 7, sm: 8 } }}>
      <Alert onClose={onClose} severity={toast.severity ?? 'success'} variant="filled" sx={{ width: '100%' }}>
        {toast.message}
      </Alert>
    </Snackbar>
  );
}
