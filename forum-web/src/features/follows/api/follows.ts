import type { FollowedTags, PostFollowing } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/**
 * Following a post (GET, PUT and DELETE /api/posts/:id/follow) and tags (GET /api/me/followed-tags,
 * PUT and DELETE /api/tags/:name/follow): the signed-in member's choice, read again once the server
 * has taken a change.
 */
export const followsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPostFollowing: build.query<PostFollowing, string>({
      query: (postId) => `posts/${encodeURIComponent(postId)}/follow`,
      responseSchema: contract('PostFollowing'),
      providesTags: (_result, _error, postId) => [{ type: 'Follow', id: `post-${postId}` }],
    }),
    setPostFollowing: build.mutation<unknown, { postId: string; follow: boolean }>({
      query: ({ postId, follow }) => ({ url: `posts/${encodeURIComponent(postId)}/follow`, method: follow ? 'PUT' : 'DELETE' }),
      invalidatesTags: (_result, error, { postId }) => (error ? [] : [{ type: 'Follow', id: `post-${postId}` }]),
    }),
    getFollowedTags: build.query<FollowedTags, void>({
      query: () => 'me/followed-tags',
      responseSchema: contract('FollowedTags'),
      providesTags: [{ type: 'Follow', id: 'tags' }],
    }),
    setTagFollowing: build.mutation<unknown, { tag: string; follow: boolean }>({
      query: ({ tag, follow }) => ({ url: `tags/${encodeURIComponent(tag)}/follow`, method: follow ? 'PUT' : 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [{ type: 'Follow', id: 'tags' }]),
    }),
  }),
});

export const { useGetPostFollowingQuery, useSetPostFollowingMutation, useGetFollowedTagsQuery, useSetTagFollowingMutation } = followsApi;
