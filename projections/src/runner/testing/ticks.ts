import { createPostgresEventStore, type EventStore, type NewEvent } from '@forum/eventstore';
import { createIsolatedDatabase, createTestDatabase, testEventMetadata } from '@forum/platform/testing';
import { createKnex, type Knex } from '@forum/platform';
import { afterAll, beforeAll } from 'vitest';

/** A synthetic event the counting projection applies: the runner does not care what events mean. */
export const tick = (i: number, type = 'Tick'): NewEvent => ({
  type,
  data: { i },
  metadata: testEventMetadata({ correlationId: `c${i}` }),
});

export interface TickLog {
  readonly url: string;
  readonly store: EventStore;
  readonly db: Knex;
  /** Every committed event, whatever readers' horizons are doing. */
  eventCount(): Promise<number>;
}

/**
 * A database of its own with an event store, dropped by `close()`; `isolated`: on a PostgreSQL
 * server of its own, for a test that holds a transaction open (see createIsolatedDatabase).
 */
export async function openTickLog(prefix: string, options: { isolated?: boolean } = {}): Promise<TickLog & { close(): Promise<void> }> {
  const database = options.isolated ? await createIsolatedDatabase(prefix) : await createTestDatabase(prefix);
  const store = await createPostgresEventStore({ connectionString: database.url });
  const db = createKnex(database.url);
  return {
    url: database.url,
    store,
    db,
    eventCount: async () => (await db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM eventstore.events')).rows[0]!.n,
    async close() {
      await store.close();
      await db.destroy();
      await database.drop();
    },
  };
}

/** A test file's own database with an event store, made before its tests and dropped after them. */
export function useTickLog(prefix: string, options: { isolated?: boolean } = {}): TickLog {
  let opened: Awaited<ReturnType<typeof openTickLog>> | undefined;
  const log = {} as { url: string; store: EventStore; db: Knex; eventCount(): Promise<number> };
  beforeAll(async () => {
    opened = await openTickLog(prefix, options);
    Object.assign(log, { url: opened.url, store: opened.store, db: opened.db, eventCount: opened.eventCount });
  });
  afterAll(async () => {
    await opened?.close();
  });
  return log;
}
