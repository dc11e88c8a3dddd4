import { createPostgresEventStore, type EventStore, type RecordedEvent } from '@forum/eventstore';
import { createKnex, type Knex } from '@forum/platform';
import { createTestDatabase } from '@forum/platform/testing';
import { readCommittedLog } from '../testing/log.ts';
import { loadSyntheticLog } from './synthetic-log.ts';

export interface SyntheticFixture {
  readonly db: Knex;
  readonly store: EventStore;
  /** The whole log, in order. */
  readonly log: readonly RecordedEvent[];
  close(): Promise<void>;
}

/** A test database holding a synthetic log of `events` events, the log read back into memory, and connections to it. */
export async function syntheticFixture(name: string, options: { events: number; seed: number }): Promise<SyntheticFixture> {
  const database = await createTestDatabase(name);
  const { events } = await loadSyntheticLog(database.url, options);
  const store = await createPostgresEventStore({ connectionString: database.url, poolSize: 2 });
  const db = createKnex(database.url, { max: 2 });
  const log = await readCommittedLog(store, events);
  return {
    db,
    store,
    log,
    async close() {
      await store.close();
      await db.destroy();
      await database.drop();
    },
  };
}
