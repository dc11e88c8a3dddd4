import { hasAuthCallback } from '@forum/web-auth';
import { useEffect, useState, type ReactNode } from 'react';
import { BrowserRouter, StaticRouter } from 'react-router-dom';
import { PageSpinner } from '../components/PageSpinner';
import { useAuthState } from '../lib/auth';
import { AuthNotices } from './auth-notices';
import { AppRoutes } from './router';

/** The mark on <html> once the app runs in the page (`data-app="running"`). */
export const APP_RUNNING = { key: 'app', value: 'running' } as const;

let markRunning: () => void = () => {};
/** Settles once the app runs in the page: its first render committed (a server-rendered page's: hydrated). */
export const appRunning = new Promise<void>((resolve) => (markRunning = resolve));

/**
 * The pages render at once while the sign-in state loads (the bar shows a spinner in its place),
 * except on the return from the realm: that URL carries the code in its fragment until
 * keycloak-js has taken it out, and the router must not start with it. The server renders the same
 * tree at `serverLocation` (entry-server.tsx): the same shape gives the same ids (useId), which the
 * browser's hydration must find.
 */
export function App({ serverLocation }: { serverLocation?: string }) {
  const [returning] = useState(() => serverLocation === undefined && hasAuthCallback(window.location.href));
  // the page is the app's from here on (a server-rendered one: hydrated, its controls answer); the journeys wait for it
  useEffect(() => {
    document.documentElement.dataset[APP_RUNNING.key] = APP_RUNNING.value;
    markRunning();
  }, []);
  return (
    <SpinnerWhileSignInTaken returning={returning}>
      <AuthNotices />
      {serverLocation === undefined ? (
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      ) : (
        <StaticRouter location={serverLocation}>
          <AppRoutes />
        </StaticRouter>
      )}
    </SpinnerWhileSignInTaken>
  );
}

/**
 * The only part of the app's root that follows the sign-in state: its children are App's elements, so
 * a change of that state (hydration, the check's answer) re-renders what reads it, not every page.
 */
function SpinnerWhileSignInTaken({ returning, children }: { returning: boolean; children: ReactNode }) {
  const { status } = useAuthState();
  return status === 'loading' && returning ? <PageSpinner fullScreen /> : children;
}
