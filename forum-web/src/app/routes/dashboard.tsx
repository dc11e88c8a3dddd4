import { NOTIFICATIONS_PATH } from '@forum/contracts';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import { lazy } from 'react';
import { DashboardLayout, type DashboardPage as Page } from '../../features/account';

/** The notification centre and preferences: their own chunk, loaded when one is opened. */
const NotificationCentre = lazy(async () => ({ default: (await import('../../features/notifications/centre')).NotificationCentre }));
const NotificationPreferencesPage = lazy(async () => ({ default: (await import('../../features/notifications/centre')).NotificationPreferencesPage }));

const CENTRE = NOTIFICATIONS_PATH.replace('/dashboard/', '');

const PAGES: readonly Page[] = [
  { path: CENTRE, element: <NotificationCentre />, link: { label: 'Notifications', Icon: NotificationsOutlined } },
  { path: 'notification-preferences', element: <NotificationPreferencesPage />, under: CENTRE },
];

/** /dashboard/* (spec §2 User dashboard): the account's pages, and the notifications' pages beside them. */
export function DashboardPage() {
  return <DashboardLayout pages={PAGES} />;
}
