import { useEffect } from 'react';
import { useToast } from '../components/toast/ToastProvider';
import { useAuth, useAuthState } from '../lib/auth';

const GREETING = {
  login: 'Login Successfully',
  register: 'Register Successfully',
  logout: 'Logout Successfully',
  erased: 'Your account has been deleted.',
} as const;

/**
 * Spec §8: a toast when the page comes back from the realm after signing in, registering or signing
 * out; after a member erased their own account, that it is deleted (a sign-out is the least of it).
 */
export function AuthNotices() {
  const auth = useAuth();
  const { status, error } = useAuthState();
  const toast = useToast();

  useEffect(() => {
    if (status === 'loading') return;
    const returned = auth.takeReturn();
    if (returned) toast({ message: GREETING[returned], severity: 'success' });
    else if (error) toast({ message: `Sign-in failed (${error})`, severity: 'error' });
  }, [auth, error, status, toast]);

  return null;
}
