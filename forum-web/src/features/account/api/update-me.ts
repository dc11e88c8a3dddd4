import type { CommandAccepted, UpdateMeRequest } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** PATCH /api/me — 'Change Photo' (and the display name). The caller's posts show the new photo too. */
export const updateMeApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateMe: build.mutation<CommandAccepted, UpdateMeRequest>({
      query: (body) => ({ url: 'me', method: 'PATCH', body }),
      responseSchema: contract('CommandAccepted'),
      invalidatesTags: (_result, error) => (error ? [] : ['Me', 'Post']),
    }),
  }),
});

export const { useUpdateMeMutation } = updateMeApi;
