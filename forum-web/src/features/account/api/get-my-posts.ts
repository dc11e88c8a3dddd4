import type { PostListItem } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';
import { totalCountOf } from '../../../lib/total-count';

export interface MyPosts {
  posts: PostListItem[];
  /** All of the user's posts; more than `posts.length` when the list stopped at UNPAGED_LIST_MAX. */
  total: number;
}

/** GET /api/my-posts/:email — the user's newest posts (up to UNPAGED_LIST_MAX), how many they have in X-Total-Count. */
export const getMyPostsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMyPosts: build.query<MyPosts, string>({
      query: (email) => `my-posts/${encodeURIComponent(email)}`,
      rawResponseSchema: contract('MyPosts'),
      transformResponse: (posts: PostListItem[], meta) => ({ posts, total: totalCountOf(meta, posts.length) }),
      providesTags: (result) => [{ type: 'Post', id: 'MINE' }, ...(result?.posts.map((post) => ({ type: 'Post' as const, id: post._id })) ?? [])],
    }),
  }),
});

export const { useGetMyPostsQuery } = getMyPostsApi;
