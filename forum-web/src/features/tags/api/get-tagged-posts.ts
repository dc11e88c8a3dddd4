import type { PostListItem } from '@forum/contracts';
import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { api } from '../../../lib/api';
import { contract } from '../../../lib/contract';

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
      transformResponse: (posts: PostListItem[], meta) => {
        const total = Number((meta as FetchBaseQueryMeta | undefined)?.response?.headers.get('X-Total-Count'));
        return { posts, total: Number.isFinite(total) && total >= posts.length ? total : posts.length };
      },
      providesTags: (result) => [{ type: 'Post', id: 'LIST' }, ...(result?.posts.map((post) => ({ type: 'Post' as const, id: post._id })) ?? [])],
    }),
  }),
});

export const { useGetTaggedPostsQuery } = getTaggedPostsApi;
