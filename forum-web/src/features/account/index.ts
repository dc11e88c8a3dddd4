/** The signed-in user's own screens: the membership upgrade and the user dashboard (profile, add post, my posts). */
export { MembershipPage } from './components/MembershipPage';
export { DashboardLayout, type DashboardPage } from './components/DashboardLayout';
export { SuspensionBanner } from './components/SuspensionBanner';
