import { CssBaseline } from '@mui/material';
import { lazy, Suspense, type ComponentType } from 'react';
import { AdminContext, CoreAdminUI, LoadingPage, localStorageStore, type AdminContextProps, type CoreAdminUIProps } from 'react-admin';
import { ConsoleNotification } from './ConsoleNotification';

/** A page react-admin shows seldom (an unknown address, a failed sign-in check, an error), loaded when it is shown. */
function seldom<P extends object>(load: () => Promise<ComponentType<P>>) {
  const Page = lazy(async () => ({ default: await load() }));
  return function SeldomPage(props: P) {
    return (
      <Suspense fallback={<LoadingPage />}>
        <Page {...props} />
      </Suspense>
    );
  };
}

const NotFound = seldom<object>(async () => (await import('./seldomPages')).NotFound);
const AuthenticationError = seldom<object>(async () => (await import('./seldomPages')).AuthenticationError);
const AuthCallback = seldom<object>(async () => (await import('./seldomPages')).AuthCallback);
const ErrorPage = seldom(async () => (await import('./seldomPages')).ErrorPage);

const store = localStorageStore();

/**
 * react-admin's `<Admin>` as its own code puts it together (AdminContext, then AdminUI: CssBaseline,
 * CoreAdminUI with react-admin's pages, Notification), less what the console never shows at first:
 * no login page (signing in is the realm's page), and react-admin's not-found, sign-in error,
 * auth-callback and error pages loaded when shown. `<Admin>` names them as defaults, which put react-admin's
 * login form (its inputs, react-hook-form) in the console's first load.
 */
export function ConsoleAdmin(
  props: Pick<AdminContextProps, 'authProvider' | 'dataProvider' | 'i18nProvider' | 'theme' | 'basename'> &
    Pick<CoreAdminUIProps, 'layout' | 'dashboard' | 'accessDenied' | 'title' | 'children'>,
) {
  const { authProvider, dataProvider, i18nProvider, theme, basename, children, ...ui } = props;
  return (
    <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={i18nProvider} theme={theme} basename={basename} store={store}>
      <CssBaseline enableColorScheme>
        <CoreAdminUI
          {...ui}
          disableTelemetry
          requireAuth
          loginPage={false}
          loading={LoadingPage}
          error={ErrorPage}
          catchAll={NotFound}
          authenticationError={AuthenticationError}
          authCallbackPage={AuthCallback}
        >
          {children}
        </CoreAdminUI>
        <ConsoleNotification />
      </CssBaseline>
    </AdminContext>
  );
}
