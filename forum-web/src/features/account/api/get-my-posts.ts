import type { PostListItem } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

type MyPosts = PostListItem[];

/** GET /api/my-posts/:email — every post of the user, newest first (the API does not page it). */
export const getMyPostsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMyPosts: build.query<MyPosts, string>({
      query: (email) => `my-posts/${encodeURIComponent(email)}`,
      responseSchema: contract('MyPosts'),
      providesTags: (result) => [{ type: 'Post', id: 'MINE' }, ...(result?.map((post) => ({ type: 'Post' as const, id: post._id })) ?? [])],
    }),
  }),
});

export const { useGetMyPostsQuery } = getMyPostsApi;
