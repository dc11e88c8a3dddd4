import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, RaRecord } from 'react-admin';

/**
 * Reads go through ra-data-simple-rest against the query-service: with a `range`
 * parameter it answers a JSON array and `Content-Range: posts 0-9/23`.
 */
const restProvider = simpleRestProvider('/api');

/** The forum's records are keyed `_id` (spec §3); react-admin needs `id`. */
function withId<T extends RaRecord>(record: T): T {
  const raw = record as T & { _id?: string };
  return raw.id === undefined && raw._id !== undefined ? { ...raw, id: raw._id } : record;
}

export const dataProvider: DataProvider = {
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
