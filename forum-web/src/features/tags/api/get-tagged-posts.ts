import type { PostListItem } from '@forum/contracts';
import { api } from '../../../lib/api';
import { contract } from '../../../lib/contract';
import { totalCountOf } from '../../../lib/total-count';

export interface TaggedPosts {
  posts: PostListItem[];
  /** Every post with the tag; more than `posts.length` when the list stopped at UNPAGED_LIST_MAX. */
  total: number;
}

/** GET /api/posts/search?tag=… (the spec's unpaged call): the posts with a tag, newest first, the full count in X-Total-Count. */
export const getTaggedPostsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTaggedPosts: build.query<TaggedPosts, string>({
      query: (tag) => ({ url: 'posts/search', params: { tag } }),
      rawResponseSchema: contract('PostList'),
      transformResponse: (posts: PostListItem[], meta) => ({ posts, total: totalCountOf(meta, posts.length) }),
      providesTags: (result) => [{ type: 'Post', id: 'LIST' }, ...(result?.posts.map((post) => ({ type: 'Post' as const, id: post._id })) ?? [])],
    }),
  }),
});

export const { useGetTaggedPostsQuery } = getTaggedPostsApi;
