export { json, rateLimited, stubApi } from './api-stub.ts';
export type { Params, Reply, Routes } from './api-stub.ts';
export { descriptionOf, n } from './fields.ts';
