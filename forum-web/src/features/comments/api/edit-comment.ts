import { HEADER_IDEMPOTENCY_KEY, type CommandAccepted, type EditCommentRequest } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/**
 * PATCH /api/comments/:commentId — the author edits their comment. The post's comments and the
 * comment's revisions are read again after it, carrying this write's position.
 */
export const editCommentApi = api.injectEndpoints({
  endpoints: (build) => ({
    editComment: build.mutation<CommandAccepted, { commentId: string; postId: string; edit: EditCommentRequest; idempotencyKey: string }>({
      query: ({ commentId, edit, idempotencyKey }) => ({
        url: `comments/${encodeURIComponent(commentId)}`,
        method: 'PATCH',
        body: edit,
        headers: { [HEADER_IDEMPOTENCY_KEY]: idempotencyKey },
      }),
      responseSchema: contract('CommandAccepted'),
      invalidatesTags: (_result, error, { commentId, postId }) =>
        error
          ? []
          : [
              { type: 'Comment', id: postId },
              { type: 'Comment', id: commentId },
            ],
    }),
  }),
});

export const { useEditCommentMutation } = editCommentApi;
