import type { PostDetail } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/posts/:id — one post with its full description. */
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
