import type { Auth } from '@forum/web-auth';
import { Box, CircularProgress } from '@mui/material';
import { lazy, useEffect, useMemo, useState } from 'react';
import { CanAccess, CustomRoutes, Resource } from 'react-admin';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { AccessDenied } from './AccessDenied';
import { createAuthProvider } from './authProvider';
import { createDataProvider } from './dataProvider';
import { i18nProvider } from './i18nProvider';
import { lazyPage } from './lazyPage';
import { ConsoleAdmin } from './layout/ConsoleAdmin';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { consoleTheme } from './layout/theme';
import { consoleRoleOf } from './permissions';
import audit from './resources/audit';
import contactMessages from './resources/contact-messages';
import manageUsers from './resources/manage-users';
import posts from './resources/posts';
import projections from './resources/projections';
import reportedComments from './resources/reported-comments';
import reports from './resources/reports';
import snapshots from './resources/snapshots';

// every page is its own chunk (the dashboard's chart library one more of its own)
const Dashboard = lazy(() => import('./resources/dashboard/Dashboard'));
const MakeAnnouncement = lazyPage(() => import('./resources/announcements/MakeAnnouncement'), 'MakeAnnouncement');
const HistoryPage = lazyPage(() => import('./resources/history/HistoryPage'), 'HistoryPage');

type Access = 'checking' | 'open' | 'denied';

/**
 * The console lives under /admin of the gateway with real paths (not #/ ones):
 * react-admin runs inside our BrowserRouter under `/admin/*` and builds its links from `basename`.
 * Every page needs a signed-in admin or moderator (`requireAuth`); signing in happens on the realm's
 * page. A signed-in member gets 'Access Denied' instead of an empty console; a moderator sees only
 * the menu entries and pages their role may use (permissions.ts, react-admin's `canAccess`).
 */
export function App({ auth }: { auth: Auth }) {
  const authProvider = useMemo(() => createAuthProvider(auth), [auth]);
  const dataProvider = useMemo(() => createDataProvider(() => auth.token()), [auth]);
  // a visitor goes on to react-admin, whose checkAuth sends them to the realm
  const [access, setAccess] = useState<Access>(() => (auth.getState().status === 'authenticated' ? 'checking' : 'open'));

  useEffect(() => {
    if (auth.getState().status !== 'authenticated') return;
    let current = true;
    void Promise.resolve(authProvider.getPermissions?.({}))
      .then((roles: unknown) => consoleRoleOf(roles) !== null)
      .catch(() => false)
      .then((staff) => current && setAccess(staff ? 'open' : 'denied'));
    return () => {
      current = false;
    };
  }, [auth, authProvider]);

  if (access === 'checking') {
    return (
      <Box role="status" aria-label="Loading" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: '100vh' }}>
        <CircularProgress />
      </Box>
    );
  }
  if (access === 'denied') return <AccessDenied onSignOut={() => void authProvider.logout({})} />;

  return (
    <BrowserRouter>
      <Routes>
        <Route
          path="/admin/*"
          element={
            <ConsoleAdmin
              basename="/admin"
              title="Forum Admin"
              authProvider={authProvider}
              dataProvider={dataProvider}
              i18nProvider={i18nProvider}
              accessDenied={AccessDenied}
              layout={ConsoleLayout}
              theme={consoleTheme}
              dashboard={Dashboard}
            >
              <Resource name="reports" {...reports} />
              <Resource name="manage-users" {...manageUsers} recordRepresentation="name" />
              <Resource name="reported-comments" {...reportedComments} />
              <Resource name="audit" {...audit} />
              <Resource name="contact-messages" {...contactMessages} />
              <Resource name="projections" {...projections} />
              <Resource name="snapshots" {...snapshots} />
              <Resource name="posts" {...posts} recordRepresentation="title" />
              <CustomRoutes>
                <Route
                  path="/make-announcement"
                  element={
                    <CanAccess resource="announcements" action="create" accessDenied={<AccessDenied />}>
                      <MakeAnnouncement />
                    </CanAccess>
                  }
                />
                <Route path="/history/:kind/:id" element={<HistoryPage />} />
              </CustomRoutes>
            </ConsoleAdmin>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}
