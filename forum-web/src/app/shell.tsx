import { RootLayout } from '../components/layout/RootLayout';
import { useGetMeQuery } from '../features/account/api/get-me';
import { NotificationBell } from '../features/notifications';
import { useAuthState } from '../lib/auth';

/** The shell with what the features add to it: the bell, and the photo the forum has for the signed-in user (Change Photo shows at once). */
export function Shell() {
  const { user } = useAuthState();
  const { data: me } = useGetMeQuery(undefined, { skip: !user });
  return <RootLayout navActions={<NotificationBell />} userPicture={me?.photoURL} />;
}
