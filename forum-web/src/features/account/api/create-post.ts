import { HEADER_IDEMPOTENCY_KEY, type CommandAccepted, type CreatePostRequest } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** POST /api/posts — Create Post. Author, votes and date come from the token and the server. */
export const createPostApi = api.injectEndpoints({
  endpoints: (build) => ({
    createPost: build.mutation<CommandAccepted, { post: CreatePostRequest; idempotencyKey: string }>({
      query: ({ post, idempotencyKey }) => ({ url: 'posts', method: 'POST', body: post, headers: { [HEADER_IDEMPOTENCY_KEY]: idempotencyKey } }),
      responseSchema: contract('CommandAccepted'),
      // on failure too: a 422 POST_LIMIT_REACHED means the count shown was stale
      invalidatesTags: [
        { type: 'Post', id: 'LIST' },
        { type: 'Post', id: 'MINE' },
      ],
    }),
  }),
});

export const { useCreatePostMutation } = createPostApi;
