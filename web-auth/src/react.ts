import { createContext, createElement, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Auth, AuthState } from './auth.ts';

/** The React side of the auth module: a context for the one Auth of the app and a hook that re-renders on change. */
const AuthContext = createContext<Auth | null>(null);

export function AuthProvider({ auth, children }: { auth: Auth; children?: ReactNode }) {
  return createElement(AuthContext.Provider, { value: auth }, children);
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth() needs an <AuthProvider auth={…}> above it');
  return auth;
}

/**
 * What a page rendered on a server shows, and so what the browser renders while it hydrates that page
 * (however late a lazy part of it hydrates): the sign-in check has not answered.
 */
const NOT_KNOWN_YET: AuthState = { status: 'loading', user: null, error: null };
const notKnownYet = () => NOT_KNOWN_YET;

/** The current status, user and roles; re-renders when they change (and, on a hydrated page, once hydrated). */
export function useAuthState(): AuthState {
  const auth = useAuth();
  return useSyncExternalStore(auth.onChange, auth.getState, notKnownYet);
}
