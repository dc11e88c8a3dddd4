export { FollowPostButton } from './components/FollowPostButton';
export { FollowTagButton } from './components/FollowTagButton';
