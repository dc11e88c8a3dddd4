import { positionToken, type LogPosition } from '@forum/contracts';
import type { EventStore, RecordedEvent, Subscription } from '@forum/eventstore';
import { abortableSleep, type Logger } from '@forum/platform';
import type pg from 'pg';
import { advanceFeedCheckpoint, migrateFeedCheckpoints, readFeedCheckpoint } from './checkpoint.ts';
import { feedMessage } from './message.ts';
import type { FeedPublisher } from './port.ts';

export interface FeedRelayOptions {
  readonly store: EventStore;
  /** The PostgreSQL database that keeps the relay's checkpoint (the forum's). */
  readonly db: pg.Pool;
  readonly publisher: FeedPublisher;
  /** The checkpoint's row: one per feed (default `kafka`). */
  readonly name?: string;
  /** The most events sent and not yet acknowledged (default 500): the relay reads no further ahead of the broker. */
  readonly maxInFlight?: number;
  /** The pause after a failure, doubling up to `maxMs` (defaults 100 ms and 5 s). */
  readonly retry?: { readonly firstMs?: number; readonly maxMs?: number };
  readonly logger: Logger;
}

export interface FeedRelayStatus {
  /** The position of the last event the broker acknowledged. */
  readonly checkpoint: LogPosition;
  /** Events acknowledged since the feed began (duplicates sent again after a restart count again). */
  readonly published: bigint;
  /** Why the last publish or read failed, while the relay has not succeeded since; null when all is well. */
  readonly failing: string | null;
}

export interface FeedRelay {
  status(): FeedRelayStatus;
  /** Stops after the batch in hand: acknowledged and checkpointed, or (when its publish has not succeeded) left for the next start. */
  stop(): Promise<void>;
}

class RelayStopped extends Error {
  constructor() {
    super('the feed relay stopped before the broker acknowledged the batch');
  }
}

/**
 * Follows the log from the relay's checkpoint and publishes every event through `publisher`,
 * at least once, in log order (so in order within each stream):
 *
 * - it reads at most `maxInFlight` events past its checkpoint, publishes them as one batch and
 *   waits for the broker's acknowledgement before it reads on (back-pressure: a slow broker slows
 *   the relay, never fills its memory);
 * - the checkpoint moves only after the acknowledgement, so a crash at any point sends the
 *   unacknowledged batch again on restart (a duplicate, never a gap);
 * - a failed publish is sent again, whole, after a pause that grows to `retry.maxMs`, until it
 *   succeeds: the relay never skips past an event; a failed read or checkpoint write starts the
 *   subscription again from the checkpoint.
 *
 * It reads the log without opening personal data, and `feedMessage` leaves every personal field out.
 */
export async function startFeedRelay(options: FeedRelayOptions): Promise<FeedRelay> {
  const { store, db, publisher, logger } = options;
  const name = options.name ?? 'kafka';
  const maxInFlight = options.maxInFlight ?? 500;
  const firstMs = options.retry?.firstMs ?? 100;
  const maxMs = options.retry?.maxMs ?? 5000;
  if (!Number.isSafeInteger(maxInFlight) || maxInFlight < 1) throw new RangeError(`maxInFlight must be a whole number from 1, not ${maxInFlight}`);

  await migrateFeedCheckpoints(db);
  const start = await readFeedCheckpoint(db, name);
  let checkpoint = start.position;
  let published = start.published;
  let failing: string | null = null;
  const abort = new AbortController();
  let subscription: Subscription | null = null;

  const failed = (error: unknown) => (failing = error instanceof Error ? error.message : String(error));

  async function publishBatch(events: readonly RecordedEvent[]): Promise<void> {
    const messages = events.map(feedMessage);
    for (let pause = firstMs; ; pause = Math.min(pause * 2, maxMs)) {
      if (abort.signal.aborted) throw new RelayStopped();
      try {
        await publisher.publish(messages);
        break;
      } catch (error) {
        failed(error);
        logger.warn({ err: error, events: messages.length, retryInMs: pause }, 'feed publish failed; sending the batch again');
        await abortableSleep(pause, abort.signal);
      }
    }
    const last = events.at(-1)!.position;
    await advanceFeedCheckpoint(db, name, last, events.length);
    checkpoint = last;
    published += BigInt(events.length);
    failing = null;
  }

  const running = (async () => {
    for (let pause = firstMs; !abort.signal.aborted; pause = Math.min(pause * 2, maxMs)) {
      try {
        const from = (await readFeedCheckpoint(db, name)).position;
        subscription = store.subscribe({ after: from, batchSize: maxInFlight, open: [], onBatch: publishBatch });
        if (abort.signal.aborted) await subscription.stop();
        await subscription.done;
      } catch (error) {
        if (abort.signal.aborted) break;
        failed(error);
        logger.error({ err: error, retryInMs: pause }, 'feed relay failed; following the log again from its checkpoint');
        await abortableSleep(pause, abort.signal);
      }
    }
  })();

  logger.info({ feed: name, from: positionToken(checkpoint), maxInFlight }, 'feed relay started');
  return {
    status: () => ({ checkpoint, published, failing }),
    async stop() {
      abort.abort();
      await subscription?.stop();
      await running;
    },
  };
}

/** The relay as a readiness check (`/readyz`): ready unless its last publish or read failed, with where it is. */
export function feedReadiness(relay: FeedRelay): () => Promise<{ ok: boolean; detail: unknown }> {
  return () => {
    const { checkpoint, published, failing } = relay.status();
    return Promise.resolve({
      ok: failing === null,
      detail: { checkpoint: positionToken(checkpoint), published: published.toString(), ...(failing !== null && { failing }) },
    });
  };
}
