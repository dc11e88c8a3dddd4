import type { CommentItem } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/comments/:postId — every comment of a post, oldest first. */
export const getCommentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getComments: build.query<CommentItem[], string>({
      query: (postId) => `comments/${encodeURIComponent(postId)}`,
      responseSchema: contract('CommentList'),
      providesTags: (_result, _error, postId) => [{ type: 'Comment', id: postId }],
    }),
  }),
});

export const { useGetCommentsQuery } = getCommentsApi;
