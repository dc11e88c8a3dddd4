import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { pageNonce, type Auth } from '@forum/web-auth';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

/** Renders the console (React, react-admin and its layout) into the page, once main.tsx knows who is signed in. */
export function mountConsole(root: HTMLElement, auth: Auth) {
  // react-admin's (MUI's) styles go into <style> elements carrying the page's CSP nonce
  createRoot(root).render(
    <StrictMode>
      <CacheProvider value={createCache({ key: 'css', nonce: pageNonce() })}>
        <App auth={auth} />
      </CacheProvider>
    </StrictMode>,
  );
}
