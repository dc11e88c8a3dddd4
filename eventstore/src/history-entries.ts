import { positionToken, postHistory, START, userHistory, type HistoryEntry, type HistoryKind, type LogPosition } from '@forum/contracts';
import type { EventStore, RecordedEvent } from './types.ts';

/**
 * The audit trail of a user or a post (docs/operations/history.md): a user's is every event they
 * were the actor of and every event of their own streams, a post's its own stream and its
 * comments', votes' and reports' events; each in log order, with its position, stream, time,
 * type, actor, correlation id and data. `forumctl history` prints it and the console's
 * GET /api/admin/history/:kind/:id answers it: one code path for both.
 */

/** What reads histories: the event store, or anything with its `readStream` and `readHistory`. */
export type HistoryReader = Pick<EventStore, 'readStream' | 'readHistory'>;

/** One event as the history shows it (the event's current shape, through the upcasters). */
export function historyEntry(event: RecordedEvent): HistoryEntry {
  return {
    position: positionToken(event.position),
    streamId: event.streamId,
    version: event.streamVersion,
    at: event.recordedAt.toISOString(),
    type: event.type,
    actor: event.metadata.actorId,
    correlationId: event.metadata.correlationId,
    data: event.data,
  };
}

/** Shown to people: erased personal data reads as erased ("[erased]"), not as a placeholder. */
const SHOWN = 'marked';

/** A page of the history of a user or a post: at most `limit` events after `after` (START: from the first), oldest first. */
export async function history(reader: HistoryReader, kind: HistoryKind, id: string, page: { after?: LogPosition; limit: number }): Promise<HistoryEntry[]> {
  const selection = kind === 'user' ? userHistory(id) : postHistory(id);
  const events = await reader.readHistory(selection, { after: page.after ?? START, limit: page.limit, erasedAs: SHOWN });
  return events.map(historyEntry);
}

/** One stream's events, oldest first (`forumctl history <stream-id>`); empty when it has none. */
export async function streamHistory(reader: HistoryReader, streamId: string): Promise<HistoryEntry[]> {
  const { events } = await reader.readStream(streamId, { erasedAs: SHOWN });
  return events.map(historyEntry);
}
