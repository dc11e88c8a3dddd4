import type { EventMetadata, LogPosition } from '@forum/contracts';

/**
 * The event-store port. Stream versions count events: a stream with no events
 * is at version 0, after its first event at 1. Every adapter (PostgreSQL here,
 * KurrentDB in the distributed layout) passes `eventStoreContract`.
 */
export type ExpectedVersion = 'any' | 'no_stream' | number;

export interface NewEvent {
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  readonly streamId: string;
  readonly streamVersion: number;
  readonly type: Type;
  readonly data: Data;
  readonly metadata: EventMetadata;
  readonly position: LogPosition;
  readonly recordedAt: Date;
}

export interface StreamAppend {
  readonly streamId: string;
  readonly expectedVersion: ExpectedVersion;
  readonly events: readonly NewEvent[];
}

export interface AppendResult {
  /** Each stream's version after the append, by stream id. */
  readonly versions: Readonly<Record<string, number>>;
  /** Position of the last event appended: pass it to readers as X-Event-Position. */
  readonly lastPosition: LogPosition;
}

export interface IdempotentAppend<Answer> {
  /** Scoped by the caller (e.g. actor id + the Idempotency-Key header). */
  readonly key: string;
  /** What a retry with the same key gets back, computed from the append's result. */
  readonly answer: (result: AppendResult) => Answer;
}

export type AppendOutcome<Answer> =
  | { readonly duplicate: false; readonly result: AppendResult; readonly answer: Answer }
  | { readonly duplicate: true; readonly answer: Answer };

export interface StreamRead {
  readonly version: number;
  readonly events: readonly RecordedEvent[];
}

export interface Subscription {
  /** Resolves when the loop has stopped (after the batch in hand is handled). */
  stop(): Promise<void>;
  /** Resolves or rejects when the subscription ends on its own (handler error). */
  readonly done: Promise<void>;
}

export interface SubscribeOptions {
  readonly after: LogPosition;
  readonly batchSize?: number;
  /** Called with each batch in log order; the next batch is read only after it resolves. */
  readonly onBatch: (events: readonly RecordedEvent[]) => Promise<void>;
}

export interface EventStore {
  /** Appends to one or more streams atomically; WrongExpectedVersionError when any expectation fails. */
  append(appends: readonly StreamAppend[]): Promise<AppendResult>;
  /**
   * The same, once per key: a second call with a key already used appends
   * nothing and returns the first call's answer. Concurrent calls with one key
   * append once.
   */
  appendIdempotent<Answer>(appends: readonly StreamAppend[], idempotency: IdempotentAppend<Answer>): Promise<AppendOutcome<Answer>>;
  /** The stored answer of an idempotency key, or null if it was never used. */
  idempotentAnswer<Answer>(key: string): Promise<Answer | null>;
  readStream(streamId: string): Promise<StreamRead>;
  /**
   * Events after `after` in log order, never skipping one that commits late:
   * only events of transactions that have finished are returned.
   */
  readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]>;
  /** Position of the newest event (START when empty). */
  head(): Promise<LogPosition>;
  subscribe(options: SubscribeOptions): Subscription;
  close(): Promise<void>;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super(`Stream ${streamId} is at version ${actual}, expected ${expected}`);
    this.name = 'WrongExpectedVersionError';
  }
}
