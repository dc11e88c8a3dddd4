import type { Me } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** GET /api/me — the caller's forum record: name, photo, role and whether they are a member. */
export const getMeApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMe: build.query<Me, void>({
      query: () => 'me',
      responseSchema: contract('Me'),
      providesTags: ['Me'],
    }),
  }),
});

export const { useGetMeQuery } = getMeApi;
