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
