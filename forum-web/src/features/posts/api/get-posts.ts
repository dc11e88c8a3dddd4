import type { PostsPage, ListPostsQuery } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/posts?page=&sort= — one page of the home list and the total count. */
export const getPostsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPosts: build.query<PostsPage, ListPostsQuery>({
      query: ({ page, sort }) => ({ url: 'posts', params: { page, sort } }),
      responseSchema: contract('PostsPage'),
      providesTags: (result) => [{ type: 'Post', id: 'LIST' }, ...(result?.posts.map((post) => ({ type: 'Post' as const, id: post._id })) ?? [])],
    }),
  }),
});

export const { useGetPostsQuery } = getPostsApi;
