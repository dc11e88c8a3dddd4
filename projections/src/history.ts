import { positionToken, type HistoryEntry } from '@forum/contracts';
import { createPostgresEventStore, type EventStore, type RecordedEvent } from '@forum/command-service/eventstore';

/**
 * The audit trail of one stream (a user's or a post's): its events, oldest first, each with its
 * log position, time, type, actor, correlation id and data. `forumctl history` prints it and the
 * console's GET /api/admin/history/:kind/:id answers it: one code path for both.
 */

/** What reads a stream: the event store, or anything with its `readStream`. */
export type StreamReader = Pick<EventStore, 'readStream'>;

/** One event as the history shows it (the event's current shape, through the upcasters). */
export function historyEntry(event: RecordedEvent): HistoryEntry {
  return {
    position: positionToken(event.position),
    version: event.streamVersion,
    at: event.recordedAt.toISOString(),
    type: event.type,
    actor: event.metadata.actorId,
    correlationId: event.metadata.correlationId,
    data: event.data,
  };
}

/**
 * The stream's history, oldest first; empty when the stream has no events (nothing by that id).
 * With `page`: at most `limit` events after version `after`. Erased personal data shows as erased.
 */
export async function streamHistory(reader: StreamReader, streamId: string, page?: { after: number; limit: number }): Promise<HistoryEntry[]> {
  const { events } = await reader.readStream(streamId, { erasedAs: 'marked', ...(page && { afterVersion: page.after, maxCount: page.limit }) });
  return events.map(historyEntry);
}

/** A reader of the PostgreSQL event store at `connectionString`, for a service that only reads histories. */
export async function openStreamReader(connectionString: string, poolSize = 2): Promise<StreamReader & { close(): Promise<void> }> {
  return createPostgresEventStore({ connectionString, poolSize });
}
