import { createPostgresEventStore, type EventStore, type NewEvent } from '@forum/command-service/eventstore';
import { createTestDatabase } from '@forum/infra/testing';
import { createKnex, type Knex } from '@forum/platform';
import { afterAll, beforeAll } from 'vitest';

/** A synthetic event the counting projection applies: the runner does not care what events mean. */
export const tick = (i: number, type = 'Tick'): NewEvent => ({
  type,
  data: { i },
  metadata: { actorId: 'test', correlationId: `c${i}`, causationId: null, requestId: null, schemaVersion: 1 },
});

export interface TickLog {
  readonly url: string;
  readonly store: EventStore;
  readonly db: Knex;
  /** Every committed event, whatever readers' horizons are doing. */
  eventCount(): Promise<number>;
}

/** A test file's own database with an event store, made before its tests and dropped after them. */
export function useTickLog(prefix: string): TickLog {
  let database: { url: string; drop(): Promise<void> };
  const log = {} as { url: string; store: EventStore; db: Knex; eventCount(): Promise<number> };
  beforeAll(async () => {
    database = await createTestDatabase(prefix);
    log.url = database.url;
    log.store = await createPostgresEventStore({ connectionString: database.url });
    log.db = createKnex(database.url);
    log.eventCount = async () => (await log.db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM eventstore.events')).rows[0]!.n;
  });
  afterAll(async () => {
    await log.store?.close();
    await log.db?.destroy();
    await database?.drop();
  });
  return log;
}
