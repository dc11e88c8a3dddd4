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
  createRoot(root).render(
    <StrictMode>
      <App auth={auth} />
    </StrictMode>,
  );
});
