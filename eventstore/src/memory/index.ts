export { createMemoryEventStore, type MemoryEventStoreOptions } from './store.ts';
export { MemoryEventLog } from './log.ts';
