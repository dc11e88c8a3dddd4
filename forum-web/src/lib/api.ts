import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';

/**
 * fetchBaseQuery resolves relative URLs against nothing under jsdom, so the base
 * is made absolute from the page's own origin (the gateway serves both).
 */
export function apiBaseUrl(origin: string = globalThis.location?.origin ?? 'http://localhost'): string {
  return new URL('/api', origin).href;
}

/** What the store hands the api (thunk extra argument): the auth module's token getter. */
export interface ApiExtra {
  token?: () => Promise<string | undefined>;
}

/**
 * The one RTK Query API of the app. Features add their endpoints with
 * `api.injectEndpoints`, one request per file, next to the feature.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchBaseQuery({
    baseUrl: apiBaseUrl(),
    // signed in: every call carries the access token, refreshed first when it expires within 30 s
    prepareHeaders: async (headers, { extra }) => {
      const token = await (extra as ApiExtra | undefined)?.token?.();
      if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
      return headers;
    },
  }),
  tagTypes: ['Post', 'Tag'],
  endpoints: () => ({}),
  // Votes and comment counts move while a tab sits in the background.
  refetchOnFocus: true,
  refetchOnReconnect: true,
  // An answer that breaks the contract becomes an ordinary failed query, not a thrown error.
  catchSchemaFailure: (error) => ({
    status: 'CUSTOM_ERROR' as const,
    error: `${error.schemaName} failed validation`,
    data: error.issues,
  }),
});
