import type { Auth, AuthState, AuthUser } from '@forum/web-auth';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers';
import { makeStore } from '../app/store';

/** The person the component tests sign in as, unless a test names another. */
export const ALICE: AuthUser = { id: 'u-1', email: 'alice@forum.local', name: 'Alice', picture: '', roles: ['user'], emailVerified: true };

/** A stand-in for the realm (no keycloak-js): `user` signed in, or a visitor; `login` is a spy. */
export function fakeAuth(user: AuthUser | null) {
  const state: AuthState = user ? { status: 'authenticated', user, error: null } : { status: 'anonymous', user: null, error: null };
  const never = () => new Promise<never>(() => {});
  const login = vi.fn(never);
  const auth: Auth = {
    getState: () => state,
    onChange: () => () => {},
    init: async () => state,
    takeReturn: () => null,
    login,
    register: vi.fn(never),
    logout: vi.fn(never),
    token: async () => (user ? 'test-token' : undefined),
    hasRole: (role) => user?.roles.includes(role) ?? false,
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
 * `user` is signed in (default ALICE; null for a visitor).
 */
export function renderAt(element: ReactElement, { path = '/', route = path, user = ALICE }: { path?: string; route?: string; user?: AuthUser | null } = {}) {
  const { auth, login } = fakeAuth(user);
  const store = makeStore({ token: () => auth.token() });
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
    <AppProviders store={store} auth={auth}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, store, login, auth, router };
}

function WithWhere({ children }: { children: ReactElement }) {
  return (
    <>
      {children}
      <Where />
    </>
  );
}

/** As `renderAt`, signed in as ALICE or (signedIn: false) a visitor. */
export function renderWithApp(element: ReactElement, { signedIn = true, path = '/', route = '/' }: { signedIn?: boolean; path?: string; route?: string } = {}) {
  return renderAt(element, { path, route, user: signedIn ? ALICE : null });
}

/** The path the router is at (read off the page even while a dialog hides the rest from the accessibility tree). */
export const currentPath = () => document.querySelector('output[aria-label="Current page"]')?.textContent ?? null;

/** A JSON answer as fetch gives it. */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** The API's 429 RATE_LIMITED answer: `message` says when to try again, in `seconds` (also its Retry-After). */
export const rateLimited = (message: string, seconds: number) =>
  json({ error: { code: 'RATE_LIMITED', message, details: { retryAfterSeconds: seconds } } }, 429, { 'Retry-After': String(seconds) });

/** The method and path (under /api) of a request fetch received. */
export function describeRequest(input: RequestInfo | URL, init?: RequestInit): { method: string; path: string } {
  const request = input instanceof Request ? input : new Request(input, init);
  return { method: request.method, path: new URL(request.url).pathname.replace(/^\/api/, '') };
}

type Answer = { status?: number; body?: unknown; headers?: Record<string, string> };
/** What a route answers: a status, body and headers, or a whole Response (such as rateLimited's). */
export type Reply = Answer | Response | Promise<Answer | Response>;
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
    if (reply instanceof Response) return reply;
    return new Response(JSON.stringify(reply.body ?? {}), { status: reply.status ?? 200, headers: { 'Content-Type': 'application/json', ...('headers' in reply ? reply.headers : {}) } });
  });
  vi.stubGlobal('fetch', fetch);
  return { calls };
}

/** A number as the counters write it (19,990). */
export const n = (value: number) => value.toLocaleString('en-US');

/** The description of a field (the first element its aria-describedby names: the helper text), read with the field. */
export const descriptionOf = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby')?.split(' ')[0] ?? '')?.textContent;

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
