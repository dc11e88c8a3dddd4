import { randomUUID } from 'node:crypto';
import type { EventMetadata, LogPosition } from '@forum/contracts';
import type { EventStore, NewEvent, RecordedEvent, StreamAppend } from '../types.ts';

/**
 * What every event-store adapter must do. An adapter's test calls this with a
 * factory; `beforeCommit` runs inside each writing transaction before it
 * commits (an adapter without client-side transactions may ignore it, and then
 * says so with `supportsCommitHook: false`).
 */
export interface EventStoreFactory {
  create(options?: { beforeCommit?: (appends: readonly StreamAppend[]) => Promise<void> }): Promise<EventStore>;
  supportsCommitHook: boolean;
  dispose?(): Promise<void>;
}

/** What each theme of the contract is given: the store under test (open while its tests run) and its factory. */
export interface ContractSubject {
  readonly store: EventStore;
  readonly factory: EventStoreFactory;
}

export const metadata = (overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  actorId: 'user-1',
  correlationId: randomUUID(),
  causationId: null,
  requestId: randomUUID(),
  schemaVersion: 1,
  ...overrides,
});

export const event = (type: string, data: unknown = {}): NewEvent => ({ type, data, metadata: metadata() });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const stream = () => `test-${randomUUID()}`;

/**
 * Reads the log until `done` holds. Readers see an event once no older
 * transaction is open anywhere on the server (the horizon is cluster-wide),
 * so a read right after a commit may briefly not show it yet.
 */
export async function readAllUntil(store: EventStore, after: LogPosition, done: (events: RecordedEvent[]) => boolean): Promise<RecordedEvent[]> {
  let events: RecordedEvent[] = [];
  for (let i = 0; i < 200; i++) {
    events = await store.readAll(after, 10_000);
    if (done(events)) return events;
    await sleep(10);
  }
  return events;
}
