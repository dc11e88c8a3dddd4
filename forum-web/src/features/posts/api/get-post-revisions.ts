import type { PostRevisions } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/posts/:id/revisions — the post's revisions, oldest first; read again with the post (an edit, the stream). */
export const getPostRevisionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPostRevisions: build.query<PostRevisions, string>({
      query: (id) => `posts/${encodeURIComponent(id)}/revisions`,
      responseSchema: contract('PostRevisions'),
      providesTags: (_result, _error, id) => [{ type: 'Post', id }],
    }),
  }),
});

export const { useGetPostRevisionsQuery } = getPostRevisionsApi;
