import type { PostsPage } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/posts/search?tag=…&page=n — the home page's search by tag, 5 a page. */
export const searchByTagApi = api.injectEndpoints({
  endpoints: (build) => ({
    searchPostsByTag: build.query<PostsPage, { tag: string; page: number }>({
      query: ({ tag, page }) => ({ url: 'posts/search', params: { tag, page } }),
      responseSchema: contract('PostsPage'),
      providesTags: ['Post'],
    }),
  }),
});

export const { useSearchPostsByTagQuery } = searchByTagApi;
