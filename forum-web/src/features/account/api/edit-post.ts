import { HEADER_IDEMPOTENCY_KEY, type CommandAccepted, type EditPostRequest } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/**
 * PATCH /api/posts/:id — the author edits their post. Whatever shows it is read again (the post,
 * its revisions, the lists with its title), carrying this write's position.
 */
export const editPostApi = api.injectEndpoints({
  endpoints: (build) => ({
    editPost: build.mutation<CommandAccepted, { id: string; edit: EditPostRequest; idempotencyKey: string }>({
      query: ({ id, edit, idempotencyKey }) => ({
        url: `posts/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: edit,
        headers: { [HEADER_IDEMPOTENCY_KEY]: idempotencyKey },
      }),
      responseSchema: contract('CommandAccepted'),
      invalidatesTags: (_result, error, { id }) =>
        error
          ? []
          : [
              { type: 'Post', id },
              { type: 'Post', id: 'LIST' },
              { type: 'Post', id: 'MINE' },
            ],
    }),
  }),
});

export const { useEditPostMutation } = editPostApi;
