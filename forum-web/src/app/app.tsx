import { hasAuthCallback } from '@forum/web-auth';
import { useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { PageSpinner } from '../components/PageSpinner';
import { useAuthState } from '../lib/auth';
import { AuthNotices } from './auth-notices';
import { AppRoutes } from './router';

/**
 * The pages render at once while the sign-in state loads (the bar shows a spinner in its place),
 * except on the return from the realm: that URL carries the code in its fragment until
 * keycloak-js has taken it out, and the router must not start with it.
 */
export function App() {
  const { status } = useAuthState();
  const [returning] = useState(() => hasAuthCallback(window.location.href));
  if (status === 'loading' && returning) return <PageSpinner fullScreen />;
  return (
    <>
      <AuthNotices />
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </>
  );
}
