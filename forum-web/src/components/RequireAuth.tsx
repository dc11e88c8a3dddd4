import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuthState } from '../lib/auth';
import { PageSpinner } from './PageSpinner';

/** Spec §2 route guard: a visitor goes to /joinUs, carrying the current path along to come back to. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuthState();
  const location = useLocation();
  if (status === 'loading') return <PageSpinner />;
  if (status !== 'authenticated') {
    return <Navigate to="/joinUs" replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />;
  }
  return children;
}
