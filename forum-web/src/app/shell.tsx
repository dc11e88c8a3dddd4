import { RootLayout } from '../components/layout/RootLayout';
import { SuspensionBanner } from '../features/account';
import { useGetMeQuery } from '../features/account/api/get-me';
import { NotificationBell } from '../features/notifications';
import { useAuthState } from '../lib/auth';

/**
 * The shell with what the features add to it: the bell, the photo the forum has for the signed-in user
 * (Change Photo shows at once), and the suspension banner while the member is suspended.
 */
export function Shell() {
  const { user } = useAuthState();
  const { data: me } = useGetMeQuery(undefined, { skip: !user });
  return <RootLayout navActions={<NotificationBell />} userPicture={me?.photoURL} notice={<SuspensionBanner />} />;
}
