import type { PostListItem } from '@forum/contracts';
import { contract } from './contract';
import { totalCountOf } from './total-count';

/** An unpaged list of posts (a user's) and how many there are. */
export interface UnpagedPosts {
  posts: PostListItem[];
  /** All of them; more than `posts.length` when the list stopped at UNPAGED_LIST_MAX. */
  total: number;
}

/**
 * The parts of an endpoint of an unpaged list of posts (up to UNPAGED_LIST_MAX, all counted in
 * X-Total-Count), to spread into its `build.query`: the answer's schema, the list it makes of it,
 * and its tags (the list's, `listId`, and each post's).
 */
export const unpagedPosts = (listId: 'MINE') => ({
  rawResponseSchema: contract('PostList'),
  transformResponse: (posts: PostListItem[], meta: unknown): UnpagedPosts => ({ posts, total: totalCountOf(meta, posts.length) }),
  providesTags: (result: UnpagedPosts | undefined) => [
    { type: 'Post' as const, id: listId },
    ...(result?.posts.map((post) => ({ type: 'Post' as const, id: post._id })) ?? []),
  ],
});
