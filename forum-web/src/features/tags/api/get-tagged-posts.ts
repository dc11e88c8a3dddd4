import type { PostsPage } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/posts/search?tag=…&page=n: a page of a tag's posts, newest first, 5 a page, and how many the tag has. */
export const getTaggedPostsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTaggedPosts: build.query<PostsPage, { tag: string; page: number }>({
      query: ({ tag, page }) => ({ url: 'posts/search', params: { tag, page } }),
      responseSchema: contract('PostsPage'),
      providesTags: (result) => [{ type: 'Post', id: 'LIST' }, ...(result?.posts.map((post) => ({ type: 'Post' as const, id: post._id })) ?? [])],
    }),
  }),
});

export const { useGetTaggedPostsQuery } = getTaggedPostsApi;
