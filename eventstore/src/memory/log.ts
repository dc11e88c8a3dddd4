import { compareLogPositions, START, type EventMetadata, type LogPosition } from '@forum/contracts';
import { erasuresIn } from '../erasures.ts';
import { WaitingSubscribers } from '../subscription.ts';
import { WrongExpectedVersionError, type AppendResult, type ExpectedVersion, type LogTally, type RecordedEvent, type StreamAppend } from '../types.ts';
import { MemoryKeystore } from './keystore.ts';
import { NamedLocks } from './locks.ts';

/**
 * An event as the log keeps it: its data as stored (personal fields sealed, in the shape it was
 * written in); never handed out itself, readers get copies.
 */
export type StoredEvent = RecordedEvent;

/** A writing transaction: its events are written, and readers see them once it commits. */
export interface Transaction {
  readonly result: AppendResult;
  /** Makes the events seen, erases what their `AccountErased` erase, and keeps `idempotency`'s answer with them. */
  commit(idempotency?: { key: string; answer: unknown }): void;
  rollback(): void;
}

/**
 * The in-memory event log: what a PostgreSQL database is to the PostgreSQL store, several stores
 * given one log share it. It keeps the PostgreSQL log's rules:
 *
 * - a writing transaction takes its streams' locks (in one order), checks their expected versions
 *   and writes its events under a transaction id of its own; they are seen when it commits, and not
 *   at all when it rolls back;
 * - the log is read in (transaction id, global position) order, and only below the oldest
 *   transaction still open, so a reader never passes an event that commits late;
 * - personal data is sealed as it is written (keystore.ts), and an `AccountErased` destroys its
 *   member's keys when it commits.
 */
export class MemoryEventLog {
  readonly keystore = new MemoryKeystore();
  /** Subscribers at the head, woken by every commit. */
  readonly subscribers = new WaitingSubscribers();
  /** Idempotency keys: held by the call that appends with one until it ends. */
  readonly keyLocks = new NamedLocks();
  private readonly streamLocks = new NamedLocks();
  /** Committed events in log order. */
  private readonly logOrder: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly answers = new Map<string, unknown>();
  private readonly open = new Set<bigint>();
  private newest: StoredEvent | undefined;
  private nextTransactionId = 1n;
  private nextGlobalPosition = 1n;

  /** Writes `appends` (those with events) in a transaction of its own, its streams locked until it ends; WrongExpectedVersionError when an expectation fails. */
  async begin(appends: readonly StreamAppend[]): Promise<Transaction> {
    const writes = appends.filter((append) => append.events.length > 0);
    if (writes.length === 0) throw new Error('An append needs at least one event');
    const unlock = await this.streamLocks.take(writes.map((append) => append.streamId));
    const transactionId = this.nextTransactionId++;
    this.open.add(transactionId);
    let ended = false;
    const end = () => {
      ended = true;
      this.open.delete(transactionId);
      unlock();
    };
    const recordedAt = new Date();
    const written: StoredEvent[] = [];
    const versions: Record<string, number> = {};
    try {
      // in stream order, as the PostgreSQL store writes them
      for (const { streamId, expectedVersion, events } of [...writes].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0))) {
        const actual = versions[streamId] ?? this.versionOf(streamId);
        if (!expectationHolds(expectedVersion, actual)) throw new WrongExpectedVersionError(streamId, expectedVersion, actual);
        for (const [i, event] of events.entries()) {
          written.push({
            streamId: asText(streamId),
            streamVersion: actual + i + 1,
            type: asText(event.type),
            data: this.keystore.seal(event.type, event.metadata.schemaVersion, asJson(event.data)),
            metadata: asJson(event.metadata) as EventMetadata,
            position: { transactionId, globalPosition: this.nextGlobalPosition++ },
            recordedAt,
          });
        }
        versions[streamId] = actual + events.length;
      }
    } catch (error) {
      end();
      throw error;
    }
    return {
      result: { versions, lastPosition: written.at(-1)!.position },
      commit: (idempotency) => {
        if (ended) throw new Error('the transaction has ended');
        const answer = idempotency && asJson(idempotency.answer ?? null);
        this.committed(written);
        for (const erasure of erasuresIn(writes.flatMap((append) => append.events))) this.keystore.erase(erasure);
        if (idempotency) this.answers.set(idempotency.key, answer);
        end();
        this.subscribers.wakeAll();
      },
      rollback: () => {
        if (!ended) end();
      },
    };
  }

  /** A stream's committed events after version `after`, up to version `upTo`. */
  streamEvents(streamId: string, after: number, upTo: number): readonly StoredEvent[] {
    return (this.streams.get(streamId) ?? []).slice(Math.max(0, after), Math.max(0, upTo));
  }

  /** At most `limit` events after `after` in log order that `selected` selects, of committed transactions below the oldest still open. */
  eventsAfter(after: LogPosition, limit: number, selected: (event: StoredEvent) => boolean = () => true): StoredEvent[] {
    const horizon = this.horizon();
    const events: StoredEvent[] = [];
    for (let i = this.indexAfter(after); i < this.logOrder.length && events.length < limit; i++) {
      const event = this.logOrder[i]!;
      if (event.position.transactionId >= horizon) break;
      if (selected(event)) events.push(event);
    }
    return events;
  }

  /** Whether committed events follow `after` in log order, seen by readers yet or not. */
  hasEventsAfter(after: LogPosition): boolean {
    return this.indexAfter(after) < this.logOrder.length;
  }

  /** The position of the committed event with the highest global position (START when there is none). */
  head(): LogPosition {
    return this.newest?.position ?? START;
  }

  /** The committed events of `types` up to and including `upTo` in log order: how many, and the sum of their global positions. */
  tally(types: readonly string[], upTo: LogPosition): LogTally {
    const wanted = new Set(types);
    let events = 0n;
    let positions = 0n;
    for (let i = 0; i < this.logOrder.length && compareLogPositions(this.logOrder[i]!.position, upTo) <= 0; i++) {
      const event = this.logOrder[i]!;
      if (!wanted.has(event.type)) continue;
      events++;
      positions += event.position.globalPosition;
    }
    return { events, positions };
  }

  /** The answer kept with an idempotency key's events (as stored: a copy of its JSON); undefined when the key was never used. */
  answerOf(key: string): unknown {
    return this.answers.has(key) ? structuredClone(this.answers.get(key)) : undefined;
  }

  private versionOf(streamId: string): number {
    return this.streams.get(streamId)?.length ?? 0;
  }

  /** Transactions at or past this id may still commit: readers stop before the first of their events. */
  private horizon(): bigint {
    let oldest = this.nextTransactionId;
    for (const id of this.open) if (id < oldest) oldest = id;
    return oldest;
  }

  /** The index in log order of the first committed event after `after`. */
  private indexAfter(after: LogPosition): number {
    let low = 0;
    let high = this.logOrder.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareLogPositions(this.logOrder[middle]!.position, after) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** One transaction's events, in order, into the log (where its id puts them) and their streams. */
  private committed(written: readonly StoredEvent[]): void {
    this.logOrder.splice(this.indexAfter(written[0]!.position), 0, ...written);
    for (const event of written) {
      const stream = this.streams.get(event.streamId);
      if (stream) stream.push(event);
      else this.streams.set(event.streamId, [event]);
      if (!this.newest || event.position.globalPosition > this.newest.position.globalPosition) this.newest = event;
    }
  }
}

function expectationHolds(expected: ExpectedVersion, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream' || expected === 0) return actual === 0;
  return actual === expected;
}

/** A JSON escape of U+0000 or of a surrogate (JSON.stringify writes one only for a lone surrogate), after an even run of backslashes. */
const UNSTORABLE_ESCAPE = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/**
 * A value as it comes back from a JSON column: a copy of its JSON (dates as strings, no undefined
 * fields). PostgreSQL's jsonb refuses U+0000 and a lone surrogate, and so does this log.
 */
function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('an event holds JSON: its data and metadata cannot be undefined, a function or a symbol');
  if (UNSTORABLE_ESCAPE.test(text)) throw new TypeError('the event store holds no U+0000 nor a lone surrogate in JSON: PostgreSQL refuses both in jsonb');
  return JSON.parse(text);
}

/** A stream id, type or key as a text column holds it: PostgreSQL refuses U+0000 in text. */
export function asText(text: string): string {
  if (text.includes('\u0000')) throw new TypeError('an event store cannot hold U+0000 in a stream id, a type or a key: PostgreSQL refuses it in text');
  return text;
}
