import type { CommandAccepted } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/**
 * PATCH /api/users/membership/:email — Gold membership, one-time. The server charges
 * before it answers (the demo checkout takes a moment), so the call stays busy meanwhile.
 */
export const purchaseMembershipApi = api.injectEndpoints({
  endpoints: (build) => ({
    purchaseMembership: build.mutation<CommandAccepted, string>({
      query: (email) => ({ url: `users/membership/${encodeURIComponent(email)}`, method: 'PATCH' }),
      responseSchema: contract('CommandAccepted'),
      // a failure may still mean 'already a member' (another tab): read the record again either way
      invalidatesTags: ['Me'],
    }),
  }),
});

export const { usePurchaseMembershipMutation } = purchaseMembershipApi;
