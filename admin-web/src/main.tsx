// first: before any schema is built (see the module)
import '@forum/contracts/parse-without-eval';
import { hasAuthCallback } from '@forum/web-auth';
import { initAuth, makeAuth } from './auth';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/** The console's own chunks: a visitor, whom the realm's sign-in page awaits, never loads them. */
const loadConsole = () => import('./mountConsole');

// The console starts after the check: a return from the realm carries the code in the URL's
// fragment until keycloak-js has taken it out. index.html shows a spinner meanwhile. On that
// return the console is wanted, so its chunks load while keycloak-js reads the answer.
const auth = makeAuth();
const returning = hasAuthCallback(window.location.href) ? loadConsole() : null;
void initAuth(auth).then(async () => {
  if (auth.getState().status !== 'authenticated') {
    try {
      // to the realm's sign-in page, back to the page asked for (as the console's checkAuth does)
      await auth.login({ redirectUri: window.location.href });
      return;
    } catch {
      // no sign-in page to go to: the console shows what react-admin shows when its sign-in check fails
    }
  }
  const { mountConsole } = await (returning ?? loadConsole());
  mountConsole(root, auth);
});
