import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

import type { AlertOptions, ConfirmOptions, Open } from './dialog-request';

const AppDialog = lazy(() => import('./AppDialog'));

interface Dialogs {
  confirm(options: ConfirmOptions): Promise<boolean>;
  alert(options: AlertOptions): Promise<void>;
}

const DialogContext = createContext<Dialogs | null>(null);

/**
 * The app's confirmations and messages as accessible MUI dialogs (never window.confirm):
 * one at a time, focus moves into the dialog and back, Escape cancels.
 */
export function DialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<Open | null>(null);
  // the last dialog opened: what the dialog shows while it closes; each its own Modal (`key`), so a
  // message right after a confirmation never reopens a Modal still closing (MUI's aria-hidden bookkeeping)
  const [shown, setShown] = useState<{ dialog: Open; key: number } | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);

  const ask = useCallback((next: Open) => {
    resolver.current?.(false);
    setOpen(next);
    setShown((last) => ({ dialog: next, key: (last?.key ?? 0) + 1 }));
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

  return (
    <DialogContext.Provider value={dialogs}>
      {children}
      {/* the dialog's code loads when the first one opens, and stays for the closing transition */}
      {shown && (
        <Suspense fallback={null}>
          <AppDialog key={shown.key} open={open !== null} dialog={shown.dialog} onAnswer={answer} />
        </Suspense>
      )}
    </DialogContext.Provider>
  );
}

export function useDialogs(): Dialogs {
  const dialogs = useContext(DialogContext);
  if (!dialogs) throw new Error('useDialogs() needs a <DialogProvider> above it');
  return dialogs;
}
