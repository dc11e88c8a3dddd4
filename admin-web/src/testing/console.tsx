import { cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { AdminContext, HttpError, memoryStore, Notification, ResourceContextProvider, type AuthProvider, type UserIdentity } from 'react-admin';
import { afterEach, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { stubApi } from '@forum/web-ui/testing';
import { createDataProvider, type ForumDataProvider } from '../dataProvider';
import { i18nProvider } from '../i18nProvider';
import { mayAccess, type ConsoleRole } from '../permissions';

/**
 * A page of the console as App.tsx mounts it (react-admin under /admin of the gateway, the
 * console's texts, a fresh store, toasts), on the real data provider against the stubbed fetch unless the
 * test passes its own. `resource` puts the page in that resource's context; `role` is the signed-in
 * staff member's (an admin unless the test says otherwise), with the console's own permissions.
 */
export function renderConsole(
  element: ReactElement,
  {
    path,
    resource,
    dataProvider,
    identity,
    role = 'admin',
  }: { path: string; resource?: string; dataProvider?: ForumDataProvider; identity?: UserIdentity; role?: ConsoleRole },
) {
  // `identity`: the signed-in staff member (react-admin's getIdentity), for pages that tell their own row apart
  const authProvider: AuthProvider = {
    login: async () => {},
    logout: async () => {},
    checkAuth: async () => {},
    checkError: async () => {},
    getIdentity: () => (identity ? Promise.resolve(identity) : Promise.reject(new Error('No identity in this test'))),
    getPermissions: () => Promise.resolve([role]),
    canAccess: ({ resource: name, action }) => Promise.resolve(mayAccess(role, name, action)),
  };
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext
        basename="/admin"
        dataProvider={dataProvider ?? createDataProvider(() => Promise.resolve('admin-token'))}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        store={memoryStore()}
      >
        {resource ? <ResourceContextProvider value={resource}>{element}</ResourceContextProvider> : element}
        <Notification />
      </AdminContext>
    </MemoryRouter>,
  );
}

/** A JSON answer as fetch gives it (a string body is sent as it is: a server's broken answer). */
export const respond = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** A phone's width for MUI's useMediaQuery (jsdom has no matchMedia), undone after each test: `(max-width:…)` queries match below `width`. */
export function atPhoneWidth(width = 390) {
  vi.stubGlobal('matchMedia', (media: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(media);
    const min = /min-width:\s*([\d.]+)px/.exec(media);
    const matches = (!max || width <= Number(max[1])) && (!min || width >= Number(min[1]));
    return {
      matches,
      media,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    };
  });
}

/** What a stubbed server sees of a request: its address, method, and its headers and body as sent. */
export interface StubRequest {
  url: URL;
  method: string;
  init: { method: string; headers: Headers; body: string };
}

/** The console's API answered by `answer` (the forum's API stub, every route); every call is kept as "METHOD /path" in `calls`. */
export function stubServer(answer: (request: StubRequest) => Response | Promise<Response>) {
  return stubApi({
    '* /api/*': async (request) =>
      answer({ url: new URL(request.url), method: request.method, init: { method: request.method, headers: request.headers, body: await request.text() } }),
  });
}

/** react-admin logs every failed data provider call in development: the failures a test provokes are expected. */
export function quietHttpErrors() {
  const log = console.error.bind(console);
  vi.spyOn(console, 'error').mockImplementation((first: unknown, ...rest: unknown[]) => {
    if (!(first instanceof HttpError)) log(first, ...rest);
  });
}

// every console test starts from a clean page, a real fetch and real console
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
