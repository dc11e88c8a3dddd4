import { createHash, randomUUID } from 'node:crypto';
import { START, TRACEPARENT, type EventMetadata, type LogPosition } from '@forum/contracts';
import { WrongExpectedVersionError, type ExpectedVersion } from '@forum/eventstore';
import {
  ANY,
  NO_STREAM,
  WrongExpectedVersionError as KurrentConflict,
  type AppendStreamState,
  type Position,
  type ReadPosition,
} from '@kurrent/kurrentdb-client';

/**
 * How the port's values travel to KurrentDB and back: positions, expected versions, conflicts,
 * metadata and event ids. Pure functions, unit-tested without a server (wire.unit.test.ts).
 */

// ---- positions ---------------------------------------------------------------------------------

/**
 * KurrentDB orders `$all` by commit position, then prepare position; the port's LogPosition orders
 * by transactionId, then globalPosition. So the commit position is the transactionId and the
 * prepare position the globalPosition: the order is the same, and the events of one commit (a
 * multi-stream append) share a transactionId as the rows of one PostgreSQL transaction do.
 * Both are byte offsets in KurrentDB's log, not counts of events.
 */
export const toLogPosition = (position: Position): LogPosition => ({ transactionId: position.commit, globalPosition: position.prepare });

/** Where a read of `$all` after `after` starts (inclusive: the reader drops the event at `after` itself). */
export const readFrom = (after: LogPosition): ReadPosition =>
  after.transactionId === START.transactionId && after.globalPosition === START.globalPosition
    ? 'start'
    : { commit: after.transactionId, prepare: after.globalPosition };

// ---- expected versions and conflicts -----------------------------------------------------------

/**
 * The port counts versions from 1 (a stream with one event is at version 1); KurrentDB counts
 * revisions from 0 (its first event is revision 0). Expecting version n is expecting revision n - 1.
 */
export function toStreamState(expected: ExpectedVersion): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream' || expected === 0) return NO_STREAM;
  return BigInt(expected - 1);
}

/** A stream's version from the revision of its last event (none: 0). */
export const versionOf = (revision: bigint | 'no_stream' | 'stream_exists' | undefined): number => (typeof revision === 'bigint' ? Number(revision) + 1 : 0);

/**
 * The client's conflict as the port's: the stream it names (the first append's when it names none),
 * what that append expected and the version found. Anything else is returned as it is.
 */
export function toPortError(error: unknown, appends: readonly { streamId: string; expectedVersion: ExpectedVersion }[]): unknown {
  if (!(error instanceof KurrentConflict)) return error;
  const append = appends.find((a) => a.streamId === error.streamName) ?? appends[0]!;
  return new WrongExpectedVersionError(append.streamId, append.expectedVersion, versionOf(error.actualState));
}

// ---- metadata ----------------------------------------------------------------------------------

/**
 * An event's metadata as KurrentDB stores it: a JSON object of strings (what `multiStreamAppend`
 * requires, and what single-stream appends write too, so every event reads back alike). Absent
 * causation and request ids and trace are left out; `recordedAt` is written only by an import, which keeps
 * the exported time of an event (KurrentDB's own `created` is the time of the write).
 */
export type WireMetadata = Record<string, string>;

export function encodeMetadata(metadata: EventMetadata, recordedAt?: Date): WireMetadata {
  const wire: WireMetadata = { actorId: metadata.actorId, correlationId: metadata.correlationId, schemaVersion: String(metadata.schemaVersion) };
  if (metadata.causationId !== null) wire.causationId = metadata.causationId;
  if (metadata.requestId !== null) wire.requestId = metadata.requestId;
  if (metadata.traceparent !== undefined) wire.traceparent = metadata.traceparent;
  if (recordedAt) wire.recordedAt = recordedAt.toISOString();
  return wire;
}

/** The port's metadata of a stored event, and the time an import kept (else `created`); other keys (the server's own) are ignored. */
export function decodeMetadata(stored: unknown, created: Date): { metadata: EventMetadata; recordedAt: Date } {
  const wire = (stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? stored : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof wire[key] === 'string' && wire[key] !== '' ? wire[key] : null);
  const schemaVersion = Number(text('schemaVersion') ?? wire.schemaVersion);
  const kept = text('recordedAt');
  const traceparent = text('traceparent');
  return {
    metadata: {
      actorId: text('actorId') ?? 'unknown',
      correlationId: text('correlationId') ?? 'unknown',
      causationId: text('causationId'),
      requestId: text('requestId'),
      schemaVersion: Number.isSafeInteger(schemaVersion) && schemaVersion > 0 ? schemaVersion : 1,
      // the command's trace, when it was traced (docs/operations.md#traces); anything else written there is not one
      ...(traceparent !== null && TRACEPARENT.test(traceparent) && { traceparent }),
    },
    recordedAt: kept && !Number.isNaN(Date.parse(kept)) ? new Date(kept) : created,
  };
}

// ---- event ids ---------------------------------------------------------------------------------

/**
 * An event's id. Random, except in an idempotent append, where it follows from the key, the stream
 * and the event's place: the same write sent again (a retry after a lost answer) carries the same
 * ids, which KurrentDB recognises as a write it has done (its idempotent writes by event id).
 */
export function eventId(idempotencyKey: string | undefined, streamId: string, index: number): string {
  if (idempotencyKey === undefined) return randomUUID();
  const hex = createHash('sha256').update(`${idempotencyKey}\n${streamId}\n${index}`).digest('hex');
  // shaped as a version 5 UUID (name-based, RFC 9562), variant 10
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
