import type { CommentsPage } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/**
 * GET /api/posts/:id/comments — a post's comments newest first, a page at a time: each page's
 * `nextCursor` asks for the next ('Show more comments'). A new comment then comes first, on the
 * page already shown; when the list is read again (a comment added, the tab back in focus) every
 * page shown is read again from the first, so none repeats or goes missing.
 */
export const getCommentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getComments: build.infiniteQuery<CommentsPage, string, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      query: ({ queryArg: postId, pageParam }) => ({
        url: `posts/${encodeURIComponent(postId)}/comments`,
        params: { order: 'newest', ...(pageParam !== null && { after: pageParam }) },
      }),
      responseSchema: contract('CommentsPage'),
      providesTags: (_result, _error, postId) => [{ type: 'Comment', id: postId }],
    }),
  }),
});

export const { useGetCommentsInfiniteQuery } = getCommentsApi;
