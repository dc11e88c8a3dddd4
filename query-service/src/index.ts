export { createQueryServer, queryApi, type QueryAppDeps } from './http/app.ts';
export { CheckpointWatcher } from './store/checkpoint-watcher.ts';
export { createReadDb, QueryServiceConfig, readLimits, readSettings, streamLimits } from './config.ts';
export { startLiveChanges, type LiveChanges, type LiveSettings } from './live/live-changes.ts';
export { StreamTickets } from './live/tickets.ts';
export { httpRegistrar, type Registrar } from './http/viewer.ts';
