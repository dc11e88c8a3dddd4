import { HEADER_EVENT_POSITION, HEADER_MIN_POSITION, WrittenPosition } from '@forum/contracts';
import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';

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
 * This tab's writes: every later read carries the newest as `X-Min-Position`, so the query service
 * answers only once the read models show the user's own write.
 */
export const writtenPosition = new WrittenPosition();

const rawBaseQuery = fetchBaseQuery({
  baseUrl: apiBaseUrl(),
  // signed in: every call carries the access token, refreshed first when it expires within 30 s
  prepareHeaders: async (headers, { extra, type }) => {
    const token = await (extra as ApiExtra | undefined)?.token?.();
    if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
    const position = writtenPosition.get();
    if (type === 'query' && position && !headers.has(HEADER_MIN_POSITION)) headers.set(HEADER_MIN_POSITION, position);
    return headers;
  },
});

/** fetchBaseQuery, remembering the position of every command's answer for the reads after it. */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, queryApi, extraOptions) => {
  const result = await rawBaseQuery(args, queryApi, extraOptions);
  if (queryApi.type === 'mutation') writtenPosition.saw(result.meta?.response?.headers.get(HEADER_EVENT_POSITION));
  return result;
};

/**
 * The one RTK Query API of the app. Features add their endpoints with
 * `api.injectEndpoints`, one request per file, next to the feature.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Post', 'Tag', 'Announcement', 'Notification', 'Me', 'Comment', 'Leaderboard'],
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
