import type { PostDetail } from '@forum/contracts';
import { api } from './api';
import { contract } from './contract';

/**
 * GET /api/posts/:id — one post with its full description: the post page and the edit page read it.
 * Shared here rather than in a feature (features do not import each other), so both read one cached answer.
 */
export const getPostApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPost: build.query<PostDetail, string>({
      query: (id) => `posts/${encodeURIComponent(id)}`,
      responseSchema: contract('PostDetail'),
      providesTags: (_result, _error, id) => [{ type: 'Post', id }],
    }),
  }),
});

export const { useGetPostQuery } = getPostApi;
