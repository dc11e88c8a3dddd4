import { api } from '../../../lib/api';
import { unpagedPosts, type UnpagedPosts } from '../../../lib/unpaged-posts';

/** GET /api/posts/search?tag=… (the spec's unpaged call): the posts with a tag, newest first, the full count in X-Total-Count. */
export const getTaggedPostsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTaggedPosts: build.query<UnpagedPosts, string>({
      query: (tag) => ({ url: 'posts/search', params: { tag } }),
      ...unpagedPosts('LIST'),
    }),
  }),
});

export const { useGetTaggedPostsQuery } = getTaggedPostsApi;
