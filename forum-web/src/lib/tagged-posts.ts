import type { PostsPage } from '@forum/contracts';
import { contract } from './contract';
import { api } from './api';

/**
 * GET /api/posts/search?tag=…&page=n: a page of a tag's posts, newest first, 5 a page, and how many
 * the tag has: the tag page's list and the home page's search by tag (one endpoint, one cache).
 */
export const taggedPostsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTaggedPosts: build.query<PostsPage, { tag: string; page: number }>({
      query: ({ tag, page }) => ({ url: 'posts/search', params: { tag, page } }),
      responseSchema: contract('PostsPage'),
      providesTags: (result) => [{ type: 'Post', id: 'LIST' }, ...(result?.posts.map((post) => ({ type: 'Post' as const, id: post._id })) ?? [])],
    }),
  }),
});

export const { useGetTaggedPostsQuery } = taggedPostsApi;
