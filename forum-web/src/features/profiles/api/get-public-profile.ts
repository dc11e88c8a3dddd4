import type { PublicProfile } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/users/:id?page=n: a member's public page (by id, or '@handle'), a page of their posts with it. */
export const getPublicProfileApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPublicProfile: build.query<PublicProfile, { id: string; page: number }>({
      query: ({ id, page }) => ({ url: `users/${encodeURIComponent(id)}`, params: page > 1 ? { page } : {} }),
      responseSchema: contract('PublicProfile'),
      providesTags: (_result, _error, { id }) => [{ type: 'Profile', id }],
    }),
  }),
});

export const { useGetPublicProfileQuery } = getPublicProfileApi;
