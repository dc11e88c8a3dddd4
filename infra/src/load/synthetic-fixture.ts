import { setTimeout } from 'node:timers/promises';
import { START } from '@forum/contracts';
import { createPostgresEventStore, type EventStore, type RecordedEvent } from '@forum/command-service/eventstore';
import { createKnex, type Knex } from '@forum/platform';
import { createTestDatabase } from '../testing/database.ts';
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
  await loadSyntheticLog(database.url, options);
  const store = await createPostgresEventStore({ connectionString: database.url, poolSize: 2 });
  const db = createKnex(database.url, { max: 2 });
  const { rows } = await db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM eventstore.events');
  const total = rows[0]!.n;
  // every event is committed, but a reader sees the log only below the server's oldest running
  // transaction, which another test's may hold back for a moment: read until all are there
  const log: RecordedEvent[] = [];
  for (let after = START; log.length < total; ) {
    const batch = await store.readAll(after, 1000);
    if (batch.length === 0) {
      await setTimeout(20);
      continue;
    }
    log.push(...batch);
    after = batch.at(-1)!.position;
  }
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
