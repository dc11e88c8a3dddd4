import type { TagNames } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/tags — every tag name, for the home tag strip. */
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
