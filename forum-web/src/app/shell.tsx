import { Box } from '@mui/material';
import { Suspense } from 'react';
import { RootLayout } from '../components/layout/RootLayout';
import { useGetMeQuery } from '../features/account/api/get-me';
import { useAuthState } from '../lib/auth';
import { preloadable } from '../lib/preloadable';

// the bell's code (its badge, its reads and live updates) is not part of a page's first load: the
// server's markup shows the bell, and it is hydrated once its chunk is here
const NotificationBell = preloadable(async () => (await import('../features/notifications/components/NotificationBell')).NotificationBell);
// nor is the suspension banner's, which only a signed-in member can see (the server renders a visitor's page)
const SuspensionBanner = preloadable(async () => (await import('../features/account/components/SuspensionBanner')).SuspensionBanner);

/**
 * The shell with what the features add to it: the bell, the photo the forum has for the signed-in user
 * (Change Photo shows at once), and the suspension banner while the member is suspended.
 */
export function Shell() {
  const { user } = useAuthState();
  const { data: me } = useGetMeQuery(undefined, { skip: !user });
  const bell = (
    // as large as the bell's button: the bar does not change when it comes
    <Suspense fallback={<Box sx={{ width: 40, height: 40 }} />}>
      <NotificationBell />
    </Suspense>
  );
  const banner = (
    <Suspense>
      <SuspensionBanner />
    </Suspense>
  );
  return <RootLayout navActions={bell} userPicture={me?.photoURL} notice={banner} />;
}
