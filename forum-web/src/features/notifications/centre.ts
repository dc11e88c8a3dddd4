/** The dashboard's notification pages, a chunk of their own (DashboardLayout loads them when opened). */
export { NotificationCentre } from './components/NotificationCentre';
export { NotificationPreferencesPage } from './components/NotificationPreferencesPage';
