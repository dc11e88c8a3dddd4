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

export function AppProviders({ store, auth, live, children }: { store: AppStore; auth: Auth; live: LiveStream; children: ReactNode }) {
  return (
    <AuthProvider auth={auth}>
      <ReduxProvider store={store}>
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
