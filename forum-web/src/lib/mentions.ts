import type { HandleSuggestions } from '@forum/contracts';
import type { SuggestMentions } from '@forum/web-ui';
import { useMemo } from 'react';
import { api } from './api';
import { useAuthState } from './auth';
import { contract } from './contract';

/**
 * GET /api/users/handles?prefix= — the members whose handle starts with the prefix: the editor's @
 * autocomplete. Shared here, not in a feature: the post form and both comment forms ask it.
 */
const handlesApi = api.injectEndpoints({
  endpoints: (build) => ({
    suggestHandles: build.query<HandleSuggestions, string>({
      query: (prefix) => ({ url: 'users/handles', params: { prefix } }),
      responseSchema: contract('HandleSuggestions'),
      keepUnusedDataFor: 30,
    }),
  }),
});

/** The editors' `suggest` for a signed-in member (the route answers members only); undefined for a visitor. */
export function useSuggestMentions(): SuggestMentions | undefined {
  const signedIn = useAuthState().user !== null;
  const [ask] = handlesApi.endpoints.suggestHandles.useLazyQuery();
  return useMemo(
    () =>
      signedIn
        ? async (prefix: string) => {
            const { users } = await ask(prefix, true).unwrap();
            return users;
          }
        : undefined,
    [ask, signedIn],
  );
}
