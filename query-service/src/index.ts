export { createQueryServer, queryApi, type QueryAppDeps } from './http/app.ts';
export { CheckpointWatcher } from './store/checkpoint-watcher.ts';
export { createReadDb, QueryServiceConfig, readLimits, readSettings } from './config.ts';
export { httpRegistrar, type Registrar } from './http/viewer.ts';
export { createCommunityStore } from './store/community.ts';
