// first: before any schema is built (see the module)
import '@forum/contracts/parse-without-eval';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { pageNonce } from '@forum/web-auth';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { initAuth, makeAuth } from './auth';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The router starts after the check: a return from the realm carries the code in the URL's
// fragment until keycloak-js has taken it out. index.html shows a spinner meanwhile.
const auth = makeAuth();
void initAuth(auth).then(() => {
  // react-admin's (MUI's) styles go into <style> elements carrying the page's CSP nonce
  createRoot(root).render(
    <StrictMode>
      <CacheProvider value={createCache({ key: 'css', nonce: pageNonce() })}>
        <App auth={auth} />
      </CacheProvider>
    </StrictMode>,
  );
});
