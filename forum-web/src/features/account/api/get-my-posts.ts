import { api } from '../../../lib/api';
import { unpagedPosts, type UnpagedPosts } from '../../../lib/unpaged-posts';

/** GET /api/my-posts/:email — the user's newest posts (up to UNPAGED_LIST_MAX), how many they have in X-Total-Count. */
export const getMyPostsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMyPosts: build.query<UnpagedPosts, string>({
      query: (email) => `my-posts/${encodeURIComponent(email)}`,
      ...unpagedPosts('MINE'),
    }),
  }),
});

export const { useGetMyPostsQuery } = getMyPostsApi;
