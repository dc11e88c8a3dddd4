import { Leaderboard } from '../../features/leaderboard';

/** /leaderboard (spec §2), behind RequireAuth in the router. */
export function LeaderboardPage() {
  return <Leaderboard />;
}
