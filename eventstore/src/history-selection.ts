import { POST_HISTORY_TYPES, type EventMetadata, type HistorySelection } from '@forum/contracts';

/** An event as a store keeps it: its data as stored (a post's id is never sealed). */
interface SelectableEvent {
  readonly streamId: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

const postHistoryTypes: ReadonlySet<string> = new Set(POST_HISTORY_TYPES);

/**
 * Whether a history selects an event, for an adapter that picks a history's events in Node (history.ts
 * picks them in SQL, off its indexes): the actor's events, every event of its streams, and the events
 * of POST_HISTORY_TYPES that name its post.
 */
export function selectedBy(selection: HistorySelection): (event: SelectableEvent) => boolean {
  const streams = new Set(selection.streamIds ?? []);
  return (event) =>
    (selection.actorId !== undefined && event.metadata.actorId === selection.actorId) ||
    streams.has(event.streamId) ||
    (selection.postId !== undefined && postHistoryTypes.has(event.type) && (event.data as { postId?: unknown } | null)?.postId === selection.postId);
}
