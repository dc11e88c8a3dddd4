export { createKurrentDbEventStore, type KurrentDbEventStore, type KurrentDbEventStoreOptions, type StoredEvent } from './store.ts';
export { IdempotencyKeyInDoubtError } from './idempotency.ts';
