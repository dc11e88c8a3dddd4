import type { Auth, AuthState } from '@forum/web-auth';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers';
import { makeStore } from '../app/store';

/** A stand-in for the realm: signed in as a test user, or a visitor; `login` is a spy. */
export function fakeAuth(signedIn: boolean) {
  const state: AuthState = signedIn
    ? { status: 'authenticated', user: { id: 'u-1', email: 'alice@forum.local', name: 'Alice', picture: '', roles: ['user'] }, error: null }
    : { status: 'anonymous', user: null, error: null };
  const login = vi.fn(() => new Promise<never>(() => {}));
  const auth = {
    getState: () => state,
    onChange: () => () => {},
    init: async () => state,
    takeReturn: () => null,
    login,
    register: vi.fn(),
    logout: vi.fn(),
    token: async () => (signedIn ? 'test-token' : undefined),
    hasRole: () => false,
  } as unknown as Auth;
  return { auth, login };
}

/** Renders `element` at `path` with the app's providers (store, auth, theme, toasts, dialogs) and a memory router. */
export function renderWithApp(element: ReactElement, { signedIn = true, path = '/', route = '/' }: { signedIn?: boolean; path?: string; route?: string } = {}) {
  const { auth, login } = fakeAuth(signedIn);
  const store = makeStore({ token: () => auth.token() });
  const router = createMemoryRouter([{ path: route, element }], { initialEntries: [path] });
  const view = render(
    <AppProviders store={store} auth={auth}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, store, login, router };
}

/** A JSON answer as fetch gives it. */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** The method and path (under /api) of a request fetch received. */
export function describeRequest(input: RequestInfo | URL, init?: RequestInit): { method: string; path: string } {
  const request = input instanceof Request ? input : new Request(input, init);
  return { method: request.method, path: new URL(request.url).pathname.replace(/^\/api/, '') };
}
