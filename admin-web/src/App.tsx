import type { Auth } from '@forum/web-auth';
import { Box, CircularProgress } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { Admin, Resource } from 'react-admin';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { AccessDenied } from './AccessDenied';
import { ADMIN_ROLE, createAuthProvider } from './authProvider';
import { createDataProvider } from './dataProvider';
import posts from './resources/posts';

type Access = 'checking' | 'open' | 'denied';

/**
 * The console lives under /admin of the gateway with real paths (not #/ ones):
 * react-admin runs inside our BrowserRouter under `/admin/*` and builds its links from `basename`.
 * Every page needs a signed-in admin (`requireAuth`); signing in happens on the realm's page.
 * A signed-in user who is not an admin gets 'Access Denied' instead of an empty console.
 */
export function App({ auth }: { auth: Auth }) {
  const authProvider = useMemo(() => createAuthProvider(auth), [auth]);
  const dataProvider = useMemo(() => createDataProvider(() => auth.token()), [auth]);
  const [access, setAccess] = useState<Access>('checking');

  useEffect(() => {
    // a visitor goes on to react-admin, whose checkAuth sends them to the realm
    if (auth.getState().status !== 'authenticated') return setAccess('open');
    let current = true;
    void Promise.resolve(authProvider.getPermissions?.({}))
      .then((roles: unknown) => Array.isArray(roles) && roles.includes(ADMIN_ROLE))
      .catch(() => false)
      .then((admin) => current && setAccess(admin ? 'open' : 'denied'));
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
            <Admin
              disableTelemetry
              requireAuth
              basename="/admin"
              title="Forum Admin"
              authProvider={authProvider}
              dataProvider={dataProvider}
              loginPage={false}
              accessDenied={AccessDenied}
            >
              <Resource name="posts" {...posts} recordRepresentation="title" />
            </Admin>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}
