import type { CommentRevisions } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/comments/:commentId/revisions — the comment's revisions, oldest first; read again after its edit. */
export const getCommentRevisionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCommentRevisions: build.query<CommentRevisions, string>({
      query: (commentId) => `comments/${encodeURIComponent(commentId)}/revisions`,
      responseSchema: contract('CommentRevisions'),
      providesTags: (_result, _error, commentId) => [{ type: 'Comment', id: commentId }],
    }),
  }),
});

export const { useGetCommentRevisionsQuery } = getCommentRevisionsApi;
