export { MemberNotFound, PublicProfilePage } from './components/PublicProfilePage';
