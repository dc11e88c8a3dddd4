import type { TagNames } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/**
 * GET /api/tags — the tags a new post may carry. The tags feature has the same request
 * for the home strip; features do not import each other, hence a second endpoint name.
 */
export const getTagOptionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTagOptions: build.query<TagNames, void>({
      query: () => 'tags',
      responseSchema: contract('TagNames'),
      providesTags: [{ type: 'Tag', id: 'LIST' }],
    }),
  }),
});

export const { useGetTagOptionsQuery } = getTagOptionsApi;
