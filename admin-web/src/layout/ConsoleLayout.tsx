import { styled } from '@mui/material/styles';
import { lazy, Suspense, useState, type ErrorInfo, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Loading, Sidebar, SkipNavigationButton } from 'react-admin';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';

// react-admin's error page, loaded when a page fails
const ErrorPage = lazy(async () => ({ default: (await import('./seldomPages')).ErrorPage }));

// react-admin's class names (its `LayoutClasses`, named here: its module would bring react-admin's layout and error page)
const LayoutClasses = { appFrame: 'RaLayout-appFrame', contentWithSidebar: 'RaLayout-contentWithSidebar', content: 'RaLayout-content' } as const;

/**
 * react-admin's layout (`Layout`: its class names and styles, so the theme and react-admin's parts
 * style it as before), put together as react-admin documents a layout of one's own, less what the
 * console never shows at first: the preferences inspector (no page of the console is configurable)
 * and the error page, loaded when a page fails. One change: react-admin's layout grows as wide as
 * its widest content (`min-width: fit-content`), so a page wider than a phone scrolled sideways and
 * cut the fixed app bar; here the layout is the screen's width and what is wider scrolls inside the
 * content, beside the menu and under the whole bar.
 */
const Root = styled('div', { name: 'RaLayout', overridesResolver: (_props, styles) => styles.root })(({ theme }) => ({
  display: 'flex',
  flexDirection: 'column',
  zIndex: 1,
  minHeight: '100vh',
  backgroundColor: (theme.vars || theme).palette.background.default,
  position: 'relative',
  minWidth: 0,
  width: '100%',
  [`& .${LayoutClasses.appFrame}`]: {
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    marginTop: theme.spacing(6),
    [theme.breakpoints.down('sm')]: { marginTop: theme.spacing(7) },
  },
  [`& .${LayoutClasses.contentWithSidebar}`]: {
    display: 'flex',
    flexGrow: 1,
    transition: theme.transitions.create('margin', {
      easing: theme.transitions.easing.easeOut,
      duration: theme.transitions.duration.enteringScreen,
    }),
  },
  [`& .${LayoutClasses.content}`]: {
    backgroundColor: (theme.vars || theme).palette.background.default,
    zIndex: 2,
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    flexBasis: 0,
    padding: 0,
    minWidth: 0,
    overflowX: 'auto',
    [theme.breakpoints.up('xs')]: { paddingRight: theme.spacing(1), paddingLeft: theme.spacing(1) },
  },
}));

/** The console's layout: react-admin's app bar, sidebar and the console's menu, the page beside them. */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  const [errorInfo, setErrorInfo] = useState<ErrorInfo | undefined>(undefined);
  return (
    <Root className="layout">
      <SkipNavigationButton />
      <div className={LayoutClasses.appFrame}>
        <ConsoleAppBar />
        <main className={LayoutClasses.contentWithSidebar}>
          <Sidebar>
            <ConsoleMenu />
          </Sidebar>
          <div id="main-content" className={LayoutClasses.content}>
            <ErrorBoundary
              onError={(_error, info) => setErrorInfo(info)}
              fallbackRender={({ error, resetErrorBoundary }) => (
                <Suspense fallback={<Loading />}>
                  <ErrorPage error={error as Error} errorInfo={errorInfo} resetErrorBoundary={resetErrorBoundary} />
                </Suspense>
              )}
            >
              <Suspense fallback={<Loading />}>{children}</Suspense>
            </ErrorBoundary>
          </div>
        </main>
      </div>
    </Root>
  );
}
