import { useEffect, useRef } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageSpinner } from '../../components/PageSpinner';
import { returnPath, useAuth, useAuthState } from '../../lib/auth';

type Action = 'login' | 'register';

/**
 * /joinUs and /joinUs/register (spec §2): the sign-in and registration forms are the realm's own
 * pages, so these routes forward there and come back to the page the visitor came from, else /.
 * The forward replaces this history entry: Back from the realm returns to that page, not here.
 */
function ForwardToRealm({ action }: { action: Action }) {
  const auth = useAuth();
  const { status } = useAuthState();
  const location = useLocation();
  const from = returnPath((location.state as { from?: unknown } | null)?.from) ?? '/';
  const started = useRef(false);

  useEffect(() => {
    if (status !== 'anonymous' || started.current) return;
    started.current = true;
    const redirectUri = new URL(from, window.location.origin).href;
    void (action === 'register' ? auth.register({ redirectUri, replace: true }) : auth.login({ redirectUri, replace: true }));
  }, [action, auth, from, status]);

  if (status === 'authenticated') return <Navigate to={from} replace />;
  return (
    <>
      <title>Join Us · Forum</title>
      <PageSpinner label={action === 'register' ? 'Opening registration…' : 'Taking you to sign in…'} />
    </>
  );
}

export function JoinUsPage() {
  return <ForwardToRealm action="login" />;
}

export function RegisterPage() {
  return <ForwardToRealm action="register" />;
}
