import type { TagNames } from '@forum/contracts';
import { api } from './api';
import { contract } from './contract';

/**
 * GET /api/tags — every tag name: the home tag strip and Add Post's choices. Shared here rather
 * than in a feature (features do not import each other), so both read one cached answer.
 */
export const getTagsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTags: build.query<TagNames, void>({
      query: () => 'tags',
      responseSchema: contract('TagNames'),
      providesTags: [{ type: 'Tag', id: 'LIST' }],
    }),
  }),
});

export const { useGetTagsQuery } = getTagsApi;

/**
 * `tag` as the forum writes it. The server matches tags whatever their case (the reader's 'rEaCt'
 * finds the posts tagged 'React'), so a page that names the tag takes the forum's spelling: from
 * the tag list, else from the tags of the posts `found`, else as it was asked for.
 */
export function useForumTag(tag: string, found: readonly { tags: readonly string[] }[] = []): string {
  const { data: names = [] } = useGetTagsQuery();
  const key = tag.toLowerCase();
  const same = (name: string) => name.toLowerCase() === key;
  return names.find(same) ?? found.flatMap((post) => post.tags).find(same) ?? tag;
}
