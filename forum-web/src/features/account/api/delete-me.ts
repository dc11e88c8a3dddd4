import type { CommandAccepted, EraseAccountRequest } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** DELETE /api/me — the member erases their own account (docs/security/erasure.md); they are signed out after it. */
export const deleteMeApi = api.injectEndpoints({
  endpoints: (build) => ({
    deleteMe: build.mutation<CommandAccepted, EraseAccountRequest>({
      query: (body) => ({ url: 'me', method: 'DELETE', body }),
      responseSchema: contract('CommandAccepted'),
    }),
  }),
});

export const { useDeleteMeMutation } = deleteMeApi;
