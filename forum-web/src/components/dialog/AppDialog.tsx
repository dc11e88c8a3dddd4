import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { Open } from './dialog-request';

/** The dialog of `DialogProvider` (its own chunk): a question with two answers, or a message to acknowledge. */
export default function AppDialog({ open, dialog, onAnswer }: { open: boolean; dialog: Open; onAnswer: (value: boolean) => void }) {
  const titleId = 'app-dialog-title';
  const messageId = 'app-dialog-message';
  return (
    <Dialog open={open} onClose={() => onAnswer(false)} aria-labelledby={titleId} aria-describedby={messageId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{dialog.options.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={messageId}>{dialog.options.message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        {dialog.kind === 'confirm' && <Button onClick={() => onAnswer(false)}>{dialog.options.cancelLabel ?? 'Cancel'}</Button>}
        <Button
          onClick={() => onAnswer(true)}
          variant="contained"
          color={dialog.kind === 'confirm' && dialog.options.destructive ? 'error' : 'primary'}
          // eslint-disable-next-line jsx-a11y-x/no-autofocus -- the dialog opens on the user's action; its answer takes the focus (MUI's Dialog pattern)
          autoFocus
        >
          {dialog.kind === 'confirm' ? (dialog.options.confirmLabel ?? 'Yes') : (dialog.options.okLabel ?? 'OK')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
