export { Leaderboard } from './components/Leaderboard';
