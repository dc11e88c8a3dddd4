import type { Auth, AuthState, AuthUser } from '@forum/web-auth';
import { AuthProvider } from '@forum/web-auth/react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { makeStore } from '../../../app/store';
import { theme } from '../../../app/theme';
import { DialogProvider } from '../../../components/dialog/DialogProvider';
import { ToastProvider } from '../../../components/toast/ToastProvider';

export const BOB: AuthUser = { id: 'user-bob', email: 'bob@forum.local', name: 'Bob Chen', picture: '', roles: ['user'] };

/** A signed-in (or signed-out) Auth without keycloak-js: the screens only read its state and token. */
export function fakeAuth(user: AuthUser | null): Auth {
  const state: AuthState = { status: user ? 'authenticated' : 'anonymous', user, error: null };
  const never = () => new Promise<never>(() => {});
  return {
    keycloak: {} as Auth['keycloak'],
    init: async () => state,
    getState: () => state,
    onChange: () => () => {},
    takeReturn: () => null,
    login: never,
    register: never,
    logout: never,
    token: async () => (user ? 'test-token' : undefined),
    hasRole: () => false,
  };
}

export type Reply = { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>;
/** Answers by "METHOD /api/path"; an unknown call answers 404 so a test sees it. */
export type Routes = Record<string, (request: Request) => Reply>;

/** Replaces fetch for the api: each call is recorded as "METHOD /api/path" and answered from `routes`. */
export function stubApi(routes: Routes) {
  const calls: string[] = [];
  const fetch = vi.fn(async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const key = `${request.method} ${new URL(request.url).pathname}`;
    calls.push(key);
    const handler = routes[key];
    const reply = handler ? await handler(request) : { status: 404, body: { error: { code: 'NOT_FOUND', message: `No stub for ${key}` } } };
    return new Response(JSON.stringify(reply.body ?? {}), { status: reply.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return { calls };
}

function Where() {
  const location = useLocation();
  return <output aria-label="Current page">{location.pathname}</output>;
}

/** The screen at `path` with the app's providers, a fresh store and `user` signed in; the current path is shown for assertions. */
export function renderAt(element: ReactElement, { path, user = BOB, route = path }: { path: string; user?: AuthUser | null; route?: string }) {
  const auth = fakeAuth(user);
  const store = makeStore({ token: () => auth.token() });
  return render(
    <AuthProvider auth={auth}>
      <Provider store={store}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <ToastProvider>
            <DialogProvider>
              <MemoryRouter initialEntries={[path]}>
                <Routes>
                  <Route path={route} element={element} />
                  <Route path="*" element={<p>Another page</p>} />
                </Routes>
                <Where />
              </MemoryRouter>
            </DialogProvider>
          </ToastProvider>
        </ThemeProvider>
      </Provider>
    </AuthProvider>,
  );
}

/** The path the router is at (read off the page even while a dialog hides the rest from the accessibility tree). */
export const currentPath = () => document.querySelector('output[aria-label="Current page"]')?.textContent ?? null;

export const me = (isMember: boolean) => ({
  _id: BOB.id,
  name: BOB.name,
  email: BOB.email,
  photoURL: '',
  role: 'user',
  isMember,
  registeredAt: '2026-11-01T10:00:00.000Z',
});
