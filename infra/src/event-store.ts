import { createPostgresEventStore, type EventStore } from '@forum/eventstore';
import { createKurrentDbEventStore, type KurrentDbEventStore } from '@forum/eventstore-kurrentdb';
import type { Logger, Metrics } from '@forum/platform';

/** Where the event log is: KurrentDB at EVENTSTORE_URL when set, else PostgreSQL at DATABASE_URL. */
export interface EventStoreLocation {
  readonly eventStoreUrl?: string | undefined;
  /** PostgreSQL: the log itself, or with KurrentDB the members' keys (`keystore`) beside the read models. */
  readonly databaseUrl: string;
}

/**
 * The event store every process of the composition opens (the services, the embedded forum,
 * forumctl): the same choice everywhere, so that all of a forum's processes read and write one log.
 */
export async function openEventStore(
  location: EventStoreLocation,
  options: { poolSize?: number; logger?: Logger; metrics?: Metrics | undefined } = {},
): Promise<EventStore> {
  if (location.eventStoreUrl) return createKurrentDbEventStore({ connectionString: location.eventStoreUrl, keystoreUrl: location.databaseUrl });
  const { metrics, ...rest } = options;
  return createPostgresEventStore({ connectionString: location.databaseUrl, ...rest, ...(metrics && { metrics }) });
}

/** The KurrentDB store at `eventStoreUrl`, with its export and import, for `forumctl`. */
export const openKurrentDbStore = (eventStoreUrl: string, databaseUrl: string): Promise<KurrentDbEventStore> =>
  createKurrentDbEventStore({ connectionString: eventStoreUrl, keystoreUrl: databaseUrl });
