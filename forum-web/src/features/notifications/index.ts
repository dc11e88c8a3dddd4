export { Announcements } from './components/Announcements';
