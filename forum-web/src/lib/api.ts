import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';

/**
 * fetchBaseQuery resolves relative URLs against nothing under jsdom, so the base
 * is made absolute from the page's own origin (the gateway serves both).
 */
export function apiBaseUrl(origin: string = globalThis.location?.origin ?? 'http://localhost'): string {
  return new URL('/api', origin).href;
}

/**
 * The one RTK Query API of the app. Features add their endpoints with
 * `api.injectEndpoints`, one request per file, next to the feature.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchBaseQuery({ baseUrl: apiBaseUrl() }),
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
