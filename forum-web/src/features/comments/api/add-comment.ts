import type { CommandAccepted, AddCommentRequest } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/**
 * POST /api/comments. The list and the post (its comment count) are read again after it;
 * the read carries this write's position, so the new comment is in it.
 */
export const addCommentApi = api.injectEndpoints({
  endpoints: (build) => ({
    addComment: build.mutation<CommandAccepted, AddCommentRequest>({
      query: (body) => ({ url: 'comments', method: 'POST', body }),
      responseSchema: contract('CommandAccepted'),
      invalidatesTags: (_result, error, { postId }) =>
        error
          ? []
          : [
              { type: 'Comment', id: postId },
              { type: 'Post', id: postId },
            ],
    }),
  }),
});

export const { useAddCommentMutation } = addCommentApi;
