import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Toast } from './toast';

const ToastSnackbar = lazy(() => import('./ToastSnackbar'));

type ShowToast = (toast: Toast) => void;

const ToastContext = createContext<ShowToast | null>(null);

/** One toast at a time; a newer one replaces the one on screen. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<(Toast & { key: number }) | null>(null);
  const [open, setOpen] = useState(false);
  const show = useCallback<ShowToast>((toast) => {
    setCurrent({ ...toast, key: Date.now() });
    setOpen(true);
  }, []);
  const close = (_event?: unknown, reason?: string) => {
    if (reason !== 'clickaway') setOpen(false);
  };
  const value = useMemo(() => show, [show]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      {/* the toast's code loads with the first toast */}
      {current && (
        <Suspense fallback={null}>
          <ToastSnackbar toast={current} open={open} onClose={close} />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}

export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast() needs a <ToastProvider> above it');
  return show;
}
