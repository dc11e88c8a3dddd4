import type { CommandAccepted } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** DELETE /api/my-posts/:id — the author deletes their own post. */
export const deletePostApi = api.injectEndpoints({
  endpoints: (build) => ({
    deletePost: build.mutation<CommandAccepted, string>({
      query: (id) => ({ url: `my-posts/${encodeURIComponent(id)}`, method: 'DELETE' }),
      responseSchema: contract('CommandAccepted'),
      invalidatesTags: (_result, _error, id) => [
        { type: 'Post', id },
        { type: 'Post', id: 'LIST' },
        { type: 'Post', id: 'MINE' },
      ],
    }),
  }),
});

export const { useDeletePostMutation } = deletePostApi;
