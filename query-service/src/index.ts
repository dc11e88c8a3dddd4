export { createQueryServer, queryApi, type QueryAppDeps } from './http/app.ts';
export type { EntityTimelines } from './http/time-travel.ts';
export { CheckpointWatcher } from './store/checkpoint-watcher.ts';
export { standbyCheck } from './store/standby-check.ts';
export { createCheckpointWatcher, createReadDb, QueryServiceConfig, readLimits, readSettings, streamLimits } from './config.ts';
export { startLiveChanges, type LiveChanges, type LiveSettings } from './live/live-changes.ts';
export { StreamTickets } from './live/tickets.ts';
export type { LookupLimit } from './http/lookup-limit.ts';
export { createCommunityStore } from './store/community.ts';
