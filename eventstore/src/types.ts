import type { EventMetadata, HistorySelection, LogPosition } from '@forum/contracts';

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
  /**
   * Runs once the key is held and before the events are written (a concurrent call with the same
   * key waits until this one ends); if it throws, nothing is written and the key stays free.
   */
  readonly beforeAppend?: () => Promise<void>;
  /**
   * The path in the answer of the position token (`positionToken`) of the append's last event,
   * when the answer depends on the result by that alone: a store may then work the answer out
   * before appending and write the key, the events and the answer in one statement (without
   * `beforeAppend`, on one stream), filling the position in as it writes it.
   */
  readonly positionAt?: readonly string[];
}

export type AppendOutcome<Answer> =
  { readonly duplicate: false; readonly result: AppendResult; readonly answer: Answer } | { readonly duplicate: true; readonly answer: Answer };

/**
 * How an erased member's personal data reads (docs/security/erasure.md): 'placeholder' (the
 * default; readers that compute state: 'Deleted user', empty email, photo and text, what their
 * erasure leaves in the read models) or 'marked' (readers that show the log to people: "[erased]").
 */
export type ErasedAs = 'placeholder' | 'marked';

/** How the global log is read. */
export interface LogReadOptions {
  /**
   * The event types whose personal data comes opened (every type when not given). Events of other
   * types may come as stored, their personal fields away in their sealed boxes (`SEALED_KEY`): a
   * reader must not read those fields of them. Opening costs some 20 to 40 µs an event in SQL, and
   * most readers of the log read only ids of most types: a projection opens the types whose names,
   * emails, photos or texts it keeps.
   */
  readonly open?: readonly string[];
}

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
  /** The types whose personal data the subscriber reads (see `LogReadOptions.open`); every type when not given. */
  readonly open?: readonly string[];
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
  /**
   * A stream's events in order; with `afterVersion`, only those after it (a reader that has
   * folded the first `afterVersion` already); with `maxCount`, at most that many (a page of a
   * long stream). `version` is the last event's read, or `afterVersion` when none follows it.
   * Personal data comes opened, erased fields as `erasedAs` says.
   */
  readStream(streamId: string, options?: { afterVersion?: number; maxCount?: number; erasedAs?: ErasedAs }): Promise<StreamRead>;
  /**
   * Events after `after` in log order, never skipping one that commits late:
   * only events of transactions that have finished are returned. Personal data comes opened for
   * the types `options.open` names, as `readStream`'s does.
   */
  readAll(after: LogPosition, limit: number, options?: LogReadOptions): Promise<RecordedEvent[]>;
  /**
   * A history (contracts' `userHistory`, `postHistory`): the events any criterion of `selection`
   * selects, each once, in log order, after `after` (START: from the first), at most `limit`; only
   * events of finished transactions, as `readAll`, so a page never passes one that commits later.
   * Personal data comes opened, erased fields as `erasedAs` says ('placeholder' unless given).
   */
  readHistory(selection: HistorySelection, page: { after: LogPosition; limit: number; erasedAs?: ErasedAs }): Promise<RecordedEvent[]>;
  /** Position of the newest event (START when empty). */
  head(): Promise<LogPosition>;
  subscribe(options: SubscribeOptions): Subscription;
  /**
   * How many events of `types` the log holds up to and including `upTo` (in log order), and the
   * sum of their global positions: what a reader that was handed each of them once has counted.
   * Only transactions that have finished count, so ask about a position a reader has reached.
   * Optional: an adapter that cannot count cheaply leaves it out.
   */
  tally?(types: readonly string[], upTo: LogPosition): Promise<LogTally>;
  /** The log as a relation in its database, where the adapter keeps it in PostgreSQL. */
  readonly sql?: SqlLog;
  close(): Promise<void>;
}

/** A count of events and the sum of their global positions (see `EventStore.tally`). */
export interface LogTally {
  readonly events: bigint;
  readonly positions: bigint;
}

/** A stretch of the log in log order: the events after `after`, up to and including `upTo`. */
export interface LogRange {
  readonly after: LogPosition;
  readonly upTo: LogPosition;
  /** The lowest and highest global position of its events (log order is by transaction first: they bound it for an index). */
  readonly lowest: bigint;
  readonly highest: bigint;
}

/**
 * The log as a relation of the PostgreSQL database that holds it, for a reader
 * in that same database that goes through a range of it set-wise in SQL
 * instead of event by event (a rebuild's staged replay: a million events in a
 * few statements). Events come in their current shape, through the
 * upcasters' SQL form; an event SQL cannot read is left to `readAll`.
 */
export interface SqlLog {
  /** Whether a session that answers `query` is in the log's database and may read it. */
  sharedWith(query: (sql: string) => Promise<readonly Record<string, unknown>[]>): Promise<boolean>;
  /**
   * The next range after `after` that SQL reads whole, and its number of
   * events: at most `limit` events, none past `until` (if given), of finished
   * transactions only (as `readAll`), ending before the first event of `types` whose stored version
   * SQL cannot read (newer than this build, or without an upcaster's SQL
   * form). Null when there is none: the log ends at `after`, or its next event
   * of `types` is one only `readAll` reads.
   */
  nextRange(after: LogPosition, options: { limit: number; types: readonly string[]; until?: LogPosition }): Promise<{ range: LogRange; events: number } | null>;
  /**
   * The range's events of `types` as a relation for a FROM clause, with
   * columns `pos` (the global position, bigint), `type`, `stream_id`,
   * `stream_version` and `data` (jsonb, in the current shape), and its `?`
   * bindings. Personal data comes opened (erased fields as placeholders) for
   * the types in `opened` (default: all); the other types' come without their
   * personal fields, for a reader that does not read them (opening costs).
   * Column `stored` is the data as stored (sealed, not upcast): a reader that
   * wants only a field no version changed and that is never personal (an id)
   * reads it there without the event being opened.
   */
  events(range: LogRange, types: readonly string[], opened?: readonly string[]): { sql: string; bindings: string[] };
  /** The range's events of `types`, in log order, as `readAll` gives them (a reader that skips the other types). */
  read(range: LogRange, types: readonly string[]): Promise<RecordedEvent[]>;
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
