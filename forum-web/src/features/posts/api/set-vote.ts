import type { SetVoteRequest, VoteAccepted } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';
import { voteChange } from '../hooks/vote-transition';
import { getPostApi } from '../../../lib/post';

/**
 * PUT /api/posts/:id/vote {vote}. Spec §4: the counts move only once the server has
 * answered (no optimistic update), then the post is read again for the true counts.
 */
export const setVoteApi = api.injectEndpoints({
  endpoints: (build) => ({
    setVote: build.mutation<VoteAccepted, { postId: string } & SetVoteRequest>({
      query: ({ postId, vote }) => ({ url: `posts/${encodeURIComponent(postId)}/vote`, method: 'PUT', body: { vote } }),
      responseSchema: contract('VoteAccepted'),
      async onQueryStarted({ postId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        dispatch(
          getPostApi.util.updateQueryData('getPost', postId, (post) => {
            const { likeChange, dislikeChange } = voteChange(post.myVote ?? 'none', data.vote);
            post.upVote += likeChange;
            post.downVote += dislikeChange;
            post.myVote = data.vote;
          }),
        );
      },
      invalidatesTags: (_result, error, { postId }) => (error ? [] : [{ type: 'Post', id: postId }, 'Leaderboard']),
    }),
  }),
});

export const { useSetVoteMutation } = setVoteApi;
