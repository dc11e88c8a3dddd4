export * from './types.ts';
export { createPostgresEventStore, migrateEventStore, EVENTS_CHANNEL, type PostgresEventStoreOptions } from './postgres.ts';
export { CoalescingNotifier } from './notifier.ts';
