import { lazy, Suspense, useState } from 'react';
import { useNotificationContext } from 'react-admin';

// react-admin's toasts (its Notification: MUI's Snackbar, its content and transition), loaded with the first one
const Notification = lazy(async () => ({ default: (await import('./seldomPages')).Notification }));

/**
 * react-admin's `Notification`, mounted once something is to be said: until then the console's
 * first screen has no toast to show. The toasts wait in react-admin's notification queue meanwhile,
 * and Notification takes them from it when it mounts, as it does when it is there from the start.
 */
export function ConsoleNotification() {
  const { notifications } = useNotificationContext();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <Notification />
    </Suspense>
  ) : null;
}
