export { Announcements } from './components/Announcements';
export { NotificationBell } from './components/NotificationBell';
