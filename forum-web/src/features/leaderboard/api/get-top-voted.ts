import type { TopVotedUser } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/users/top-voted — the most up-voted users, best first (at most LEADERBOARD_SIZE). */
export const getTopVotedApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTopVoted: build.query<TopVotedUser[], void>({
      query: () => 'users/top-voted',
      responseSchema: contract('TopVotedUsers'),
      providesTags: ['Leaderboard'],
    }),
  }),
});

export const { useGetTopVotedQuery } = getTopVotedApi;
