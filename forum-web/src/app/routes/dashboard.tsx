export { DashboardLayout as DashboardPage } from '../../features/account';
