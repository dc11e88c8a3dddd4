import type { UserProfile } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/user-profile/:email — My Profile: the user, their badge, three counters and the recent posts. */
export const getProfileApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProfile: build.query<UserProfile, string>({
      query: (email) => `user-profile/${encodeURIComponent(email)}`,
      responseSchema: contract('UserProfile'),
      providesTags: ['Me', { type: 'Post', id: 'MINE' }],
    }),
  }),
});

export const { useGetProfileQuery } = getProfileApi;
