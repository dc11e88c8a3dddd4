import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

/** A question with two answers: `confirm` resolves true when the person chose the confirming one. */
export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** The confirming action destroys something (a red button). */
  destructive?: boolean;
}

/** A message to acknowledge ('Error' / 'Failed to register your vote', 'Success!' / …). */
export interface AlertOptions {
  title: string;
  message: string;
  okLabel?: string;
}

interface Dialogs {
  confirm(options: ConfirmOptions): Promise<boolean>;
  alert(options: AlertOptions): Promise<void>;
}

type Open = { kind: 'confirm'; options: ConfirmOptions } | { kind: 'alert'; options: AlertOptions };

const DialogContext = createContext<Dialogs | null>(null);

/**
 * The app's confirmations and messages as accessible MUI dialogs (never window.confirm):
 * one at a time, focus moves into the dialog and back, Escape cancels.
 */
export function DialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<Open | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);

  const ask = useCallback((next: Open) => {
    resolver.current?.(false);
    setOpen(next);
    return new Promise<boolean>((resolve) => (resolver.current = resolve));
  }, []);
  const answer = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setOpen(null);
  };
  const dialogs = useMemo<Dialogs>(
    () => ({
      confirm: (options) => ask({ kind: 'confirm', options }),
      alert: async (options) => void (await ask({ kind: 'alert', options })),
    }),
    [ask],
  );

  const titleId = 'app-dialog-title';
  const messageId = 'app-dialog-message';
  return (
    <DialogContext.Provider value={dialogs}>
      {children}
      <Dialog open={open !== null} onClose={() => answer(false)} aria-labelledby={titleId} aria-describedby={messageId} maxWidth="xs" fullWidth>
        {open && (
          <>
            <DialogTitle id={titleId}>{open.options.title}</DialogTitle>
            <DialogContent>
              <DialogContentText id={messageId}>{open.options.message}</DialogContentText>
            </DialogContent>
            <DialogActions>
              {open.kind === 'confirm' ? (
                <>
                  <Button onClick={() => answer(false)}>{open.options.cancelLabel ?? 'Cancel'}</Button>
                  <Button onClick={() => answer(true)} variant="contained" color={open.options.destructive ? 'error' : 'primary'} autoFocus>
                    {open.options.confirmLabel ?? 'Yes'}
                  </Button>
                </>
              ) : (
                <Button onClick={() => answer(true)} variant="contained" autoFocus>
                  {open.options.okLabel ?? 'OK'}
                </Button>
              )}
            </DialogActions>
          </>
        )}
      </Dialog>
    </DialogContext.Provider>
  );
}

export function useDialogs(): Dialogs {
  const dialogs = useContext(DialogContext);
  if (!dialogs) throw new Error('useDialogs() needs a <DialogProvider> above it');
  return dialogs;
}
