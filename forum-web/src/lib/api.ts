import { HEADER_EVENT_POSITION, HEADER_MIN_POSITION, HEADER_READ_BEHIND, READ_BEHIND_RETRY, WrittenPosition } from '@forum/contracts';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { useDispatch } from 'react-redux';

/**
 * fetchBaseQuery resolves relative URLs against nothing under jsdom, so the base
 * is made absolute from the page's own origin (the gateway serves both).
 */
export function apiBaseUrl(origin: string = globalThis.location?.origin ?? 'http://localhost'): string {
  return new URL('/api', origin).href;
}

/** What the store hands the api (thunk extra argument): the auth module's token and the member's registration. */
export interface ApiExtra {
  token?: () => Promise<string | undefined>;
  /** The position of the forum's record of the member just after a sign-in (the page's first reads must show it), or null. */
  registration?: () => Promise<string | null>;
  /** The server's renderer (entry-server): its reads go to the read side through this, not the network. */
  fetch?: typeof fetch;
}

/**
 * This tab's writes: every later read carries the newest as `X-Min-Position`, so the query service
 * answers only once the read models show the user's own write. Kept in the tab's sessionStorage,
 * so it holds across a reload and the realm's redirects too (the sign-out after a member erased
 * their account, whose posts the page then shows as 'Deleted user').
 */
export const writtenPosition = new WrittenPosition();
const WRITTEN_POSITION_KEY = 'forum.writtenPosition';
writtenPosition.saw(stored(() => sessionStorage.getItem(WRITTEN_POSITION_KEY)));

/** A command's answer's position, remembered for this tab's reads after it. */
function rememberWrite(position: string | null | undefined): void {
  writtenPosition.saw(position);
  const newest = writtenPosition.get();
  if (newest) stored(() => sessionStorage.setItem(WRITTEN_POSITION_KEY, newest));
}

/** sessionStorage's answer, or null where the browser refuses it (storage turned off). */
function stored<T>(access: () => T): T | null {
  try {
    return access();
  } catch {
    return null;
  }
}

/**
 * Positions the next read of an endpoint must reflect, taken by that read: a live message says
 * what changed at its position, and the read it makes sends that position as `X-Min-Position`
 * (another query-service process may not have reached it yet). Only that one read carries it:
 * a visitor's later reads stay answerable from the visitors' cache.
 */
const readFloors = new Map<string, WrittenPosition>();

/** The next read of `endpoint` answers once the read models reflect `position`. */
export function readAfter(endpoint: string, position: string): void {
  const floor = readFloors.get(endpoint) ?? new WrittenPosition();
  floor.saw(position);
  readFloors.set(endpoint, floor);
}

/** The position a read of `endpoint` must reflect: this tab's newest write, or a live message's it was asked to (taken once). */
function minPositionOf(endpoint: string): string | null {
  const newest = new WrittenPosition();
  newest.saw(writtenPosition.get());
  newest.saw(readFloors.get(endpoint)?.get());
  readFloors.delete(endpoint);
  return newest.get();
}

const queryOptions: Parameters<typeof fetchBaseQuery>[0] = {
  baseUrl: apiBaseUrl(),
  // signed in: every call carries the access token, refreshed first when it expires within 30 s
  prepareHeaders: async (headers, { extra, type, endpoint }) => {
    const { token: tokenOf, registration } = (extra as ApiExtra | undefined) ?? {};
    const token = await tokenOf?.();
    if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
    // a member who has just signed up is read once the read models hold them (their registration is this tab's write)
    if (type === 'query') writtenPosition.saw(await registration?.());
    const position = type === 'query' ? minPositionOf(endpoint) : null;
    if (position && !headers.has(HEADER_MIN_POSITION)) headers.set(HEADER_MIN_POSITION, position);
    return headers;
  },
};
const browserBaseQuery = fetchBaseQuery(queryOptions);
/** The server renderer's own fetch, one base query for each (ApiExtra.fetch). */
const serverBaseQueries = new WeakMap<typeof fetch, ReturnType<typeof fetchBaseQuery>>();

const rawBaseQuery: typeof browserBaseQuery = (args, queryApi, extraOptions) => {
  const serverFetch = (queryApi.extra as ApiExtra | undefined)?.fetch;
  if (!serverFetch) return browserBaseQuery(args, queryApi, extraOptions);
  let query = serverBaseQueries.get(serverFetch);
  if (!query) serverBaseQueries.set(serverFetch, (query = fetchBaseQuery({ ...queryOptions, fetchFn: serverFetch })));
  return query(args, queryApi, extraOptions);
};

/**
 * fetchBaseQuery, remembering the position of every command's answer for the reads after it, and
 * reading again, at the same position, while the server says its answer does not reflect it yet
 * (READ_BEHIND_RETRY).
 */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, queryApi, extraOptions) => {
  let result = await rawBaseQuery(args, queryApi, extraOptions);
  if (queryApi.type === 'mutation') rememberWrite(result.meta?.response?.headers.get(HEADER_EVENT_POSITION));
  for (
    let tries = 1;
    tries < READ_BEHIND_RETRY.tries && result.meta?.response?.headers.get(HEADER_READ_BEHIND) === 'true' && !queryApi.signal.aborted;
    tries++
  ) {
    const position = result.meta.request.headers.get(HEADER_MIN_POSITION);
    if (position) readAfter(queryApi.endpoint, position);
    await new Promise((resolve) => setTimeout(resolve, READ_BEHIND_RETRY.pauseMs));
    result = await rawBaseQuery(args, queryApi, extraOptions);
  }
  return result;
};

/**
 * The one RTK Query API of the app. Features add their endpoints with
 * `api.injectEndpoints`, one request per file, next to the feature.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Post', 'Tag', 'Announcement', 'Notification', 'Me', 'Comment', 'Leaderboard', 'Follow', 'Profile', 'Preferences'],
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

/** A component's dispatch, typed for the api's thunks (`util.updateQueryData`, `util.prefetch`). */
export const useApiDispatch = useDispatch.withTypes<ThunkDispatch<{ [api.reducerPath]: ReturnType<typeof api.reducer> }, ApiExtra, UnknownAction>>();
