// first: before any schema is built (see the module)
import '@forum/contracts/parse-without-eval';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { pageNonce } from '@forum/web-auth';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { makeLiveStream } from './app/live';
import { AppProviders } from './app/providers';
import { makeStore } from './app/store';
import { makeAuth, silentCheckSsoRedirectUri } from './lib/auth';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const auth = makeAuth();
const signInChecked = auth.init({ onLoad: 'check-sso', checkLoginIframe: false, pkceMethod: 'S256', silentCheckSsoRedirectUri: silentCheckSsoRedirectUri() });
// The end-to-end tests call the API with the page's own token; the flag is set only by their browser.
if (window.__FORUM_E2E__ === true) window.__FORUM_AUTH__ = { token: () => auth.token() };

const store = makeStore({ token: () => auth.token(), registration: () => auth.registration() });
// the change stream opens once the sign-in check is done: with a member's own topic from the start
const live = makeLiveStream(store, auth, { openAfter: signInChecked });

// MUI's styles go into <style> elements carrying the page's CSP nonce
createRoot(root).render(
  <StrictMode>
    <CacheProvider value={createCache({ key: 'css', nonce: pageNonce() })}>
      <AppProviders store={store} auth={auth} live={live}>
        <App />
      </AppProviders>
    </CacheProvider>
  </StrictMode>,
);
