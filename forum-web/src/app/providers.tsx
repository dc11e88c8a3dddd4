import { CssBaseline, ThemeProvider } from '@mui/material';
import type { Auth } from '@forum/web-auth';
import { AuthProvider } from '@forum/web-auth/react';
import type { ReactNode } from 'react';
import { Provider as ReduxProvider } from 'react-redux';
import { DialogProvider } from '../components/dialog/DialogProvider';
import { ToastProvider } from '../components/toast/ToastProvider';
import { LiveProvider, type LiveStream } from '../lib/live';
import type { AppStore } from './store';
import { theme } from './theme';

/**
 * `serverState`: on a server-rendered page, the store's state as the server rendered it: the
 * hydration reads it, whatever the store has become meanwhile (a live message, the sign-in's re-read),
 * so the first render matches the server's markup; the store's own state follows at once. The
 * sign-in state is 'not known yet' there too, as the server rendered it, until the page is hydrated.
 */
export function AppProviders({
  store,
  auth,
  live,
  serverState,
  children,
}: {
  store: AppStore;
  auth: Auth;
  live: LiveStream;
  serverState?: ReturnType<AppStore['getState']>;
  children: ReactNode;
}) {
  return (
    <AuthProvider auth={auth} hydrating={serverState !== undefined}>
      <ReduxProvider store={store} {...(serverState && { serverState })}>
        <LiveProvider stream={live}>
          <ThemeProvider theme={theme}>
            <CssBaseline />
            <ToastProvider>
              <DialogProvider>{children}</DialogProvider>
            </ToastProvider>
          </ThemeProvider>
        </LiveProvider>
      </ReduxProvider>
    </AuthProvider>
  );
}
