export { MembershipPage } from '../../features/account';
