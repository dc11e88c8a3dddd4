import { TopVotedUser } from '@forum/contracts';
import { api } from '../../../lib/api';

const TopVotedUsers = TopVotedUser.array();

/** GET /api/users/top-voted — the most up-voted users, best first (at most LEADERBOARD_SIZE). */
export const getTopVotedApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTopVoted: build.query<TopVotedUser[], void>({
      query: () => 'users/top-voted',
      responseSchema: TopVotedUsers,
      providesTags: ['Leaderboard'],
    }),
  }),
});

export const { useGetTopVotedQuery } = getTopVotedApi;
