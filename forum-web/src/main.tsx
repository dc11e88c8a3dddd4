import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { AppProviders } from './app/providers';
import { makeStore } from './app/store';
import { makeAuth, silentCheckSsoRedirectUri } from './lib/auth';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const auth = makeAuth();
void auth.init({ onLoad: 'check-sso', checkLoginIframe: false, pkceMethod: 'S256', silentCheckSsoRedirectUri: silentCheckSsoRedirectUri() });
// The end-to-end tests call the API with the page's own token; the flag is set only by their browser.
if (window.__FORUM_E2E__ === true) window.__FORUM_AUTH__ = { token: () => auth.token() };

createRoot(root).render(
  <StrictMode>
    <AppProviders store={makeStore({ token: () => auth.token() })} auth={auth}>
      <App />
    </AppProviders>
  </StrictMode>,
);
