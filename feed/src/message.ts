import { PERSONAL_DATA, positionToken, SEALED_KEY } from '@forum/contracts';
import type { RecordedEvent } from '@forum/eventstore';
import type { FeedMessage } from './port.ts';

/** The headers of a feed message (docs/kafka.md). */
export const FEED_HEADERS = {
  type: 'forum-event-type',
  schemaVersion: 'forum-schema-version',
  /** The event's log position as its token (`X-Event-Position`'s form): what a consumer drops duplicates by. */
  position: 'forum-position',
  correlationId: 'forum-correlation-id',
  streamVersion: 'forum-stream-version',
  /** The W3C trace of the command that wrote it, when it was traced (docs/operations.md#traces): a consumer's span joins it. */
  traceparent: 'traceparent',
} as const;

/**
 * Personal data the feed leaves out besides members' (docs/security/erasure.md lists it): a Contact
 * message is a visitor's name, email and words, stored in plain text and not tied to an account.
 */
const WITHHELD_FROM_FEED: Readonly<Record<string, readonly string[]>> = {
  ContactMessageReceived: ['name', 'email', 'message'],
};

/** The value of a feed message: the event without its personal data, and which fields were left out. */
export interface FeedEvent {
  readonly position: string;
  readonly streamId: string;
  readonly streamVersion: number;
  readonly type: string;
  readonly schemaVersion: number;
  readonly recordedAt: string;
  readonly metadata: RecordedEvent['metadata'];
  readonly data: unknown;
  /** The fields of `data` (paths, `changes.name` for a nested one) that the feed does not carry. */
  readonly withheld: readonly string[];
}

/**
 * An event as the feed publishes it. Personal data never leaves: a member's fields (contracts'
 * `PERSONAL_DATA`) arrive from the store still sealed and their sealed boxes are dropped, so an
 * erasure has nothing to reach downstream; a visitor's (WITHHELD_FROM_FEED) are dropped too.
 * What is left is ids, times, tags, votes, roles, the forum's own texts.
 */
export function feedMessage(event: RecordedEvent): FeedMessage {
  const position = positionToken(event.position);
  const version = event.metadata.schemaVersion;
  const personal = PERSONAL_DATA[`${event.type}@${version}`];
  const withheld = [...Object.values(personal?.keys ?? {}).flatMap((fields) => Object.keys(fields ?? {})), ...(WITHHELD_FROM_FEED[event.type] ?? [])];
  const value: FeedEvent = {
    position,
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    type: event.type,
    schemaVersion: version,
    recordedAt: event.recordedAt.toISOString(),
    metadata: event.metadata,
    data: withoutFields(event.data, withheld),
    withheld,
  };
  return {
    key: event.streamId,
    value: JSON.stringify(value),
    headers: {
      [FEED_HEADERS.type]: event.type,
      [FEED_HEADERS.schemaVersion]: String(version),
      [FEED_HEADERS.position]: position,
      [FEED_HEADERS.correlationId]: event.metadata.correlationId,
      [FEED_HEADERS.streamVersion]: String(event.streamVersion),
      ...(event.metadata.traceparent && { [FEED_HEADERS.traceparent]: event.metadata.traceparent }),
    },
    position: event.position,
  };
}

/** A copy of `data` without its sealed boxes and without the fields at `paths`. */
function withoutFields(data: unknown, paths: readonly string[]): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  let copy: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  delete copy[SEALED_KEY];
  for (const path of paths) copy = withoutPath(copy, path.split('.'));
  return copy;
}

function withoutPath(data: Record<string, unknown>, [head, ...rest]: string[]): Record<string, unknown> {
  if (!(head! in data)) return data;
  const copy = { ...data };
  const inner = copy[head!];
  if (rest.length === 0) delete copy[head!];
  else if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) copy[head!] = withoutPath(inner as Record<string, unknown>, rest);
  return copy;
}
