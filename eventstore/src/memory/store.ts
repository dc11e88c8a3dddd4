import { STREAM_VERSION_MAX, upcastOnRead, type LogPosition } from '@forum/contracts';
import { selectedBy } from '../history-selection.ts';
import { runSubscription } from '../subscription.ts';
import type { AppendOutcome, ErasedAs, EventStore, IdempotentAppend, RecordedEvent, StreamAppend, Subscription } from '../types.ts';
import { asText, MemoryEventLog, type StoredEvent } from './log.ts';

export interface MemoryEventStoreOptions {
  /** The log it reads and writes; stores given one log share it, as stores on one database do. A log of its own when not given. */
  log?: MemoryEventLog;
  /** How long a subscriber at the head waits for a commit before it looks anyway (every commit wakes it). */
  pollIntervalMs?: number;
  /** Tests only: runs inside every writing transaction, its events written and not yet seen by readers. */
  beforeCommit?: (appends: readonly StreamAppend[]) => Promise<void>;
}

/**
 * The event-store port in memory, for tests and tools, never for the forum's data: nothing
 * outlives the process. It passes the same contract suite as the PostgreSQL store
 * (memory.unit.test.ts) and keeps its rules (log.ts): expected versions, atomic appends to several
 * streams, idempotency keys, reads that never pass a late commit, upcasting on read, personal data
 * sealed and erased. What it leaves out: `sql` (the log in SQL for staged replays) and the
 * erasures' record for the erasure reactor, which are PostgreSQL's.
 */
export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): EventStore {
  const log = options.log ?? new MemoryEventLog();
  let closed = false;
  const usable = () => {
    if (closed) throw new Error('the event store is closed');
  };
  /** A read's answer, computed now on the open store; its error (a closed store, a bad argument) rejects, as the port's reads do. */
  const answer = <T>(compute: () => T): Promise<T> =>
    new Promise((resolve) => {
      usable();
      resolve(compute());
    });

  /** An event as readers get it: a copy, opened (or left sealed), in its current shape. */
  function recorded(event: StoredEvent, erasedAs: ErasedAs, opened = true): RecordedEvent {
    const data = structuredClone(event.data);
    return upcastOnRead({
      streamId: event.streamId,
      streamVersion: event.streamVersion,
      type: event.type,
      data: opened ? log.keystore.open(data, erasedAs) : data,
      metadata: structuredClone(event.metadata),
      position: { ...event.position },
      recordedAt: new Date(event.recordedAt),
    });
  }

  const store: EventStore = {
    async append(appends) {
      usable();
      const transaction = await log.begin(appends);
      try {
        await options.beforeCommit?.(appends);
        transaction.commit();
      } catch (error) {
        transaction.rollback();
        throw error;
      }
      return transaction.result;
    },

    async appendIdempotent<Answer>(appends: readonly StreamAppend[], idempotency: IdempotentAppend<Answer>): Promise<AppendOutcome<Answer>> {
      usable();
      // held first: a concurrent call with the same key waits here until this one ends
      const letGo = await log.keyLocks.take([asText(idempotency.key)]);
      try {
        const kept = log.answerOf(idempotency.key);
        if (kept !== undefined) {
          if (kept === null) throw new Error(`the idempotency key ${idempotency.key} was used, and its call answered nothing to give again`);
          return { duplicate: true, answer: kept as Answer };
        }
        await idempotency.beforeAppend?.();
        const transaction = await log.begin(appends);
        try {
          await options.beforeCommit?.(appends);
          const answer = idempotency.answer(transaction.result);
          transaction.commit({ key: idempotency.key, answer });
          return { duplicate: false, result: transaction.result, answer };
        } catch (error) {
          transaction.rollback();
          throw error;
        }
      } finally {
        letGo();
      }
    },

    idempotentAnswer<Answer>(key: string): Promise<Answer | null> {
      return answer(() => (log.answerOf(key) ?? null) as Answer | null);
    },

    readStream(streamId, { afterVersion, maxCount, erasedAs = 'placeholder' } = {}) {
      return answer(() => {
        const after = afterVersion ?? 0;
        // versions count a stream's events from 1 without gaps: the next `maxCount` are those up to after + maxCount
        const upTo = maxCount === undefined ? STREAM_VERSION_MAX : Math.min(STREAM_VERSION_MAX, after + maxCount);
        const events = log.streamEvents(streamId, after, upTo).map((event) => recorded(event, erasedAs));
        return { version: events.at(-1)?.streamVersion ?? after, events };
      });
    },

    readAll(after, limit, { open } = {}) {
      return answer(() => {
        if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`a read of the log takes a whole number of events, not ${limit}`);
        return log.eventsAfter(after, limit).map((event) => recorded(event, 'placeholder', open === undefined || open.includes(event.type)));
      });
    },

    readHistory(selection, { after, limit, erasedAs = 'placeholder' }) {
      return answer(() => log.eventsAfter(after, limit, selectedBy(selection)).map((event) => recorded(event, erasedAs)));
    },

    head() {
      return answer(() => log.head());
    },

    tally(types, upTo) {
      return answer(() => log.tally(types, upTo));
    },

    subscribe(subscribeOptions): Subscription {
      // A commit may land between the subscriber's last look past its position and the start of its
      // wait (both are awaited): it then does not wait, since that commit's wake-up came before it.
      let looked = subscribeOptions.after;
      const eventsBeyond = (position: LogPosition) => {
        looked = position;
        return Promise.resolve(log.hasEventsAfter(position));
      };
      const waitForCommit = (timeoutMs: number, abort: AbortSignal) =>
        log.hasEventsAfter(looked) ? Promise.resolve() : log.subscribers.wait(timeoutMs, abort);
      return runSubscription(store, eventsBeyond, waitForCommit, options.pollIntervalMs ?? 1000, subscribeOptions);
    },

    close() {
      closed = true;
      // its subscribers look again, and end on the closed store
      log.subscribers.wakeAll();
      return Promise.resolve();
    },
  };
  return store;
}
