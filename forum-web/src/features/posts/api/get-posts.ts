import { PostsPage, type ListPostsQuery } from '@forum/contracts';
import { api } from '../../../lib/api';

/** GET /api/posts?page=&sort= — one page of the home list and the total count. */
export const getPostsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPosts: build.query<PostsPage, ListPostsQuery>({
      query: ({ page, sort }) => ({ url: 'posts', params: { page, sort } }),
      responseSchema: PostsPage,
      providesTags: (result) => [
        { type: 'Post', id: 'LIST' },
        ...(result?.posts.map((post) => ({ type: 'Post' as const, id: post._id })) ?? []),
      ],
    }),
  }),
});

export const { useGetPostsQuery } = getPostsApi;
