import type { PostCount } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/user-post-count/:email — how many posts the user has, for the free limit. */
export const getPostCountApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPostCount: build.query<PostCount, string>({
      query: (email) => `user-post-count/${encodeURIComponent(email)}`,
      responseSchema: contract('PostCount'),
      providesTags: [{ type: 'Post', id: 'MINE' }],
    }),
  }),
});

export const { useGetPostCountQuery } = getPostCountApi;
