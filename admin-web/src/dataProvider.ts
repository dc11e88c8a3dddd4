import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, type DataProvider, type RaRecord } from 'react-admin';

/** The access token of the signed-in admin (refreshed when it expires within 30 s), or undefined. */
export type TokenSource = () => Promise<string | undefined>;

/** ra's fetchJson with the admin's bearer token on every call. */
export function authenticatedHttpClient(token: TokenSource) {
  return async (url: string, options: fetchUtils.Options = {}) => {
    const current = await token();
    return fetchUtils.fetchJson(url, current ? { ...options, user: { authenticated: true, token: `Bearer ${current}` } } : options);
  };
}

/** The forum's records are keyed `_id` (spec §3); react-admin needs `id`. */
function withId<T extends RaRecord>(record: T): T {
  const raw = record as T & { _id?: string };
  return raw.id === undefined && raw._id !== undefined ? { ...raw, id: raw._id } : record;
}

/**
 * Reads go through ra-data-simple-rest against the query-service: with a `range`
 * parameter it answers a JSON array and `Content-Range: posts 0-9/23`.
 */
export function createDataProvider(token: TokenSource): DataProvider {
  const restProvider = simpleRestProvider('/api', authenticatedHttpClient(token));
  return {
    ...restProvider,
    getList: async (resource, params) => {
      const result = await restProvider.getList(resource, params);
      return { ...result, data: result.data.map(withId) };
    },
    getOne: async (resource, params) => {
      const result = await restProvider.getOne(resource, params);
      return { ...result, data: withId(result.data) };
    },
    getMany: async (resource, params) => {
      const result = await restProvider.getMany(resource, params);
      return { ...result, data: result.data.map(withId) };
    },
    getManyReference: async (resource, params) => {
      const result = await restProvider.getManyReference(resource, params);
      return { ...result, data: result.data.map(withId) };
    },
  };
}
