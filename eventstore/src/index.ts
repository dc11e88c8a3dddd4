export * from './types.ts';
export { createPostgresEventStore, EVENTS_CHANNEL, type PostgresEventStoreOptions } from './postgres.ts';
export { migrateEventStore } from './schema.ts';
export { CoalescingNotifier, ONE_TURN } from './notifier.ts';
export { unsealed, ERASURES_CHANNEL, SEAL_REWRITE } from './sealing-sql.ts';
export { history, historyEntry, streamHistory, type HistoryReader } from './history-entries.ts';
export { selectedBy } from './history-selection.ts';
export { erasuresIn, type Erasure } from './erasures.ts';
