import type { SearchPage } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/posts/search?q=…&page=n: a page of the posts whose title or description holds the words, best first, each with its snippet. */
export const searchPostsApi = api.injectEndpoints({
  endpoints: (build) => ({
    searchPosts: build.query<SearchPage, { q: string; page: number }>({
      query: ({ q, page }) => ({ url: 'posts/search', params: { q, page } }),
      responseSchema: contract('SearchPage'),
      providesTags: (result) => [{ type: 'Post', id: 'LIST' }, ...(result?.posts.map((post) => ({ type: 'Post' as const, id: post._id })) ?? [])],
    }),
  }),
});

export const { useSearchPostsQuery } = searchPostsApi;
