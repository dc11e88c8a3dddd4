import { createContext, createElement, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import { NOT_KNOWN_YET, type Auth, type AuthState } from './auth.ts';

/** The React side of the auth module: a context for the one Auth of the app, and one for its state. */
const AuthContext = createContext<Auth | null>(null);
const AuthStateContext = createContext<AuthState | null>(null);

/**
 * Holds the auth's state for the components under it. `hydrating`: the tree hydrates a page rendered
 * on a server, which showed the state as not known yet; that is the state until the hydration is
 * done. Each change of state re-renders what reads it as a transition: React renders it in slices
 * between the browser's other work (the sign-in check's answer re-renders much of a page: one long
 * task otherwise), and a part still hydrating is hydrated with the state it was rendered with first.
 */
export function AuthProvider({ auth, hydrating = false, children }: { auth: Auth; hydrating?: boolean; children?: ReactNode }) {
  const [state, setState] = useState(() => (hydrating ? NOT_KNOWN_YET : auth.getState()));
  useEffect(() => {
    const follow = () => startTransition(() => setState(auth.getState()));
    follow();
    return auth.onChange(follow);
  }, [auth]);
  return createElement(AuthContext.Provider, { value: auth }, createElement(AuthStateContext.Provider, { value: state }, children));
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth() needs an <AuthProvider auth={…}> above it');
  return auth;
}

/** The current status, user and roles; re-renders when they change. */
export function useAuthState(): AuthState {
  const state = useContext(AuthStateContext);
  if (!state) throw new Error('useAuthState() needs an <AuthProvider auth={…}> above it');
  return state;
}
