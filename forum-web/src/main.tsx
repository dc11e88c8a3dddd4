// first: before any schema is built (see the module)
import '@forum/contracts/parse-without-eval';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { hasAuthCallback, pageNonce } from '@forum/web-auth';
import { loadMarkdownRenderer } from '@forum/web-ui';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, appRunning } from './app/app';
import { preloadPages } from './app/router';
import { makeLiveStream } from './app/live';
import { AppProviders } from './app/providers';
import { makeStore } from './app/store';
import { api } from './lib/api';
import { makeAuth, silentCheckSsoRedirectUri } from './lib/auth';
import { preloadedState, STATE_SCRIPT_ID, type ServerState } from './server/state';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const auth = makeAuth();
const signInChecked = auth.init({ onLoad: 'check-sso', checkLoginIframe: false, pkceMethod: 'S256', silentCheckSsoRedirectUri: silentCheckSsoRedirectUri() });
// The end-to-end tests call the API with the page's own token; the flag is set only by their browser.
if (window.__FORUM_E2E__ === true) window.__FORUM_AUTH__ = { token: () => auth.token() };

// a page the server rendered (docs/seo.md) hands over its reads: the store starts from them, and the markup is hydrated
const serverState = document.getElementById(STATE_SCRIPT_ID)?.textContent;
const store = makeStore(
  { token: () => auth.token(), registration: () => auth.registration() },
  serverState ? preloadedState(JSON.parse(serverState) as ServerState) : undefined,
);
// the change stream opens once the sign-in check is done: with a member's own topic from the start
const live = makeLiveStream(store, auth, { openAfter: signInChecked });
const initialState = store.getState();
// back from the realm, the app shows a spinner until the sign-in is taken (App): the server's markup is not that page
const hydrating = serverState !== undefined && root.firstChild !== null && !hasAuthCallback(window.location.href);

// MUI's styles go into <style> elements carrying the page's CSP nonce; on a server-rendered page
// emotion's cache takes over the server's <style data-emotion> and inserts only what it lacks
const app = (
  <StrictMode>
    <CacheProvider value={createCache({ key: 'css', nonce: pageNonce() })}>
      <AppProviders store={store} auth={auth} live={live} {...(hydrating && { serverState: initialState })}>
        <App />
      </AppProviders>
    </CacheProvider>
  </StrictMode>
);
if (hydrating) {
  // hydrated once the page's code and, where the markup shows members' Markdown, its renderer are here (nothing suspends)
  // (not awaited at the top level: the routes' chunks import the entry's chunk, vite.config.ts, and would wait on it)
  void Promise.all([preloadPages(window.location.pathname), root.querySelector('.markdown') ? loadMarkdownRenderer() : undefined]).then(() => {
    // as a transition, React hydrates in slices and yields to the browser between them (no long task)
    startTransition(() => {
      hydrateRoot(root, app);
    });
  });
  // the server read as a visitor: a member's own part (their vote, byMe, their email) is read again once they are
  // known and the page is hydrated (its reads then have their components: the page keeps showing them meanwhile)
  void Promise.all([signInChecked, appRunning]).then(([{ user }]) => {
    if (user) store.dispatch(api.util.invalidateTags(['Post', 'Comment', 'Profile']));
  });
} else {
  root.replaceChildren();
  createRoot(root).render(app);
}
