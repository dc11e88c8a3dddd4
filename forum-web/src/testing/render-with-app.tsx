import type { Auth, AuthState, AuthUser } from '@forum/web-auth';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { makeLiveStream } from '../app/live';
import { AppProviders } from '../app/providers';
import type { LiveStreamOptions } from '../lib/live';
import { makeStore } from '../app/store';

/** The person the component tests sign in as, unless a test names another. */
export const ALICE: AuthUser = { id: 'u-1', email: 'alice@forum.local', name: 'Alice', picture: '', roles: ['user'], emailVerified: true };

/**
 * A stand-in for the realm (no keycloak-js): `user` signed in, or a visitor; `login` is a spy.
 * `registration`: the position of the forum's record of the member, as just after a sign-in.
 */
export function fakeAuth(user: AuthUser | null | 'not-known-yet', registration: string | null = null) {
  const state: AuthState =
    user === 'not-known-yet'
      ? { status: 'loading', user: null, error: null }
      : user
        ? { status: 'authenticated', user, error: null }
        : { status: 'anonymous', user: null, error: null };
  const never = () => new Promise<never>(() => {});
  const login = vi.fn(never);
  const auth: Auth = {
    getState: () => state,
    onChange: () => () => {},
    init: () => Promise.resolve(state),
    takeReturn: () => null,
    login,
    register: vi.fn(never),
    logout: vi.fn(never),
    token: () => Promise.resolve(state.user ? 'test-token' : undefined),
    registration: () => Promise.resolve(registration),
    hasRole: (role) => state.user?.roles.includes(role) ?? false,
  };
  return { auth, login };
}

function Where() {
  const location = useLocation();
  return <output aria-label="Current page">{location.pathname}</output>;
}

/**
 * The screen `element` at `path` (matched by `route`) with the app's own providers (store, auth,
 * theme, toasts, dialogs), a fresh store and a memory router; any other path shows 'Another page'.
 * `user` is signed in (default ALICE; null for a visitor; 'not-known-yet' while the sign-in check has not answered). The change stream opens only where the
 * test gives the page an EventSource (testing/fake-event-source.ts); `live` sets its timings;
 * `registration`, the position of the forum's record of the member just after their sign-in.
 */
export function renderWithApp(
  element: ReactElement,
  {
    path = '/',
    route = path,
    user = ALICE,
    live: liveOptions = {},
    registration = null,
  }: { path?: string; route?: string; user?: AuthUser | null | 'not-known-yet'; live?: Partial<LiveStreamOptions>; registration?: string | null } = {},
) {
  const { auth, login } = fakeAuth(user, registration);
  const store = makeStore({ token: () => auth.token(), registration: () => auth.registration() });
  const live = makeLiveStream(store, auth, { spreadMs: 0, ...liveOptions });
  const router = createMemoryRouter(
    [
      { path: route, element: <WithWhere>{element}</WithWhere> },
      {
        path: '*',
        element: (
          <WithWhere>
            <p>Another page</p>
          </WithWhere>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <AppProviders store={store} auth={auth} live={live}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, store, login, auth, router, live };
}

function WithWhere({ children }: { children: ReactElement }) {
  return (
    <>
      {children}
      <Where />
    </>
  );
}

/** The path the router is at (read off the page even while a dialog hides the rest from the accessibility tree). */
export const currentPath = () => document.querySelector('output[aria-label="Current page"]')?.textContent ?? null;

/**
 * The browser's answer to loading a picture (jsdom loads none): `new Image()`'s decode() resolves
 * for an address `isImage` accepts and rejects for any other, as a browser's does for a page or a
 * broken link. Every address asked for is kept in `asked`.
 */
export function stubImages(isImage: (src: string) => boolean) {
  const asked: string[] = [];
  vi.stubGlobal(
    'Image',
    class {
      src = '';
      referrerPolicy = '';
      decode() {
        asked.push(this.src);
        return isImage(this.src) ? Promise.resolve() : Promise.reject(new DOMException('The source image cannot be decoded.', 'EncodingError'));
      }
    },
  );
  return { asked };
}
