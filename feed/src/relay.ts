import { positionToken, type LogPosition } from '@forum/contracts';
import type { EventStore, RecordedEvent, Subscription } from '@forum/eventstore';
import { abortableSleep, AdvisoryLockSession, type Logger } from '@forum/platform';
import { advanceFeedCheckpoint, FEED_LOCK_CLASS, feedSessionName, migrateFeedCheckpoints, readFeedCheckpoint, type FeedCheckpoint } from './checkpoint.ts';
import { feedMessage } from './message.ts';
import type { FeedPublisher } from './port.ts';

export { FEED_LOCK_CLASS } from './checkpoint.ts';

/**
 * How often a standby relay tries the feed's lock: a relay that dies (or stops) is replaced within
 * about this long, plus the start of a subscription.
 */
export const FEED_STANDBY_RETRY_MS = 1_000;

/**
 * A relay that lost its lock waits this many standby retries before it tries again: a standby
 * whose session held on (it tries every retry) takes over first, rather than the relay whose
 * connection just failed taking the lock straight back.
 */
const LOST_LOCK_PAUSES = 2;

export interface FeedRelayOptions {
  readonly store: EventStore;
  /** The PostgreSQL database that keeps the relay's checkpoint and its lock (the forum's): the relay holds one session there. */
  readonly databaseUrl: string;
  readonly publisher: FeedPublisher;
  /** The checkpoint's row and the lock's key: one per feed (default `kafka`). */
  readonly name?: string;
  /** The most events sent and not yet acknowledged (default 500): the relay reads no further ahead of the broker. */
  readonly maxInFlight?: number;
  /** The pause after a failure, doubling up to `maxMs` (defaults 100 ms and 5 s). */
  readonly retry?: { readonly firstMs?: number; readonly maxMs?: number };
  /** How often a standby tries the lock (default FEED_STANDBY_RETRY_MS). */
  readonly standbyRetryMs?: number;
  readonly logger: Logger;
}

/** `active`: this relay holds the feed's lock and publishes; `standby`: another one does (or none could be asked yet), and this one tries the lock every second. */
export type FeedRelayRole = 'active' | 'standby';

export interface FeedRelayStatus {
  readonly role: FeedRelayRole;
  /** The position of the last event the broker acknowledged (a standby: as the active relay's checkpoint said at its last try). */
  readonly checkpoint: LogPosition;
  /** Events acknowledged since the feed began (duplicates sent again after a restart count again). */
  readonly published: bigint;
  /** Why the last publish, read or lock attempt failed, while the relay has not succeeded since; null when all is well. */
  readonly failing: string | null;
}

export interface FeedRelay {
  status(): FeedRelayStatus;
  /** Stops after the batch in hand (acknowledged and checkpointed, or, when its publish has not succeeded, left for the next holder), then frees the lock. */
  stop(): Promise<void>;
}

class RelayStopped extends Error {
  constructor() {
    super('the feed relay stopped before the broker acknowledged the batch');
  }
}

class LockLost extends Error {
  constructor() {
    super("the feed relay lost the feed's lock: it publishes no further and leaves the checkpoint to the next holder");
  }
}

/**
 * Follows the log from the relay's checkpoint and publishes every event through `publisher`,
 * at least once, in log order (so in order within each stream):
 *
 * - only while it holds the feed's lock: a PostgreSQL advisory lock (FEED_LOCK_CLASS, the feed's
 *   name) on a session of its own. A relay that finds it taken stands by, tries again every
 *   `standbyRetryMs`, and when it gets it reads the checkpoint afresh and publishes from there.
 *   Losing the session (a crash, a cut connection, a restarted server) frees the lock: the relay
 *   hears of it, starts no further batch, and goes back to trying the lock;
 * - it reads at most `maxInFlight` events past its checkpoint, publishes them as one batch and
 *   waits for the broker's acknowledgement before it reads on (back-pressure: a slow broker slows
 *   the relay, never fills its memory);
 * - the checkpoint moves only after the acknowledgement, so a crash at any point sends the
 *   unacknowledged batch again from the next holder (a duplicate, never a gap); and only in a
 *   statement that finds the lock held by the session that runs it (`advanceFeedCheckpoint`), so a
 *   relay that lost the lock moves it no more, even one that has not heard of its loss yet;
 * - a failed publish is sent again, whole, after a pause that grows to `retry.maxMs`, until it
 *   succeeds: the relay never skips past an event; a failed read or checkpoint write starts the
 *   subscription again from the checkpoint.
 *
 * The broker does not know the lock: a batch already with it when the lock moves may still land
 * after the next holder began. That batch (at most `maxInFlight` events) starts at the same
 * checkpoint the next holder starts from, so it is a duplicate of what that one sends, never a
 * gap, and it is the last the old holder sends (docs/kafka.md, "Standby relays").
 *
 * It reads the log without opening personal data, and `feedMessage` leaves every personal field out.
 */
export async function startFeedRelay(options: FeedRelayOptions): Promise<FeedRelay> {
  const { store, publisher, logger } = options;
  const name = options.name ?? 'kafka';
  const maxInFlight = options.maxInFlight ?? 500;
  const firstMs = options.retry?.firstMs ?? 100;
  const maxMs = options.retry?.maxMs ?? 5000;
  const standbyRetryMs = options.standbyRetryMs ?? FEED_STANDBY_RETRY_MS;
  if (!Number.isSafeInteger(maxInFlight) || maxInFlight < 1) throw new RangeError(`maxInFlight must be a whole number from 1, not ${maxInFlight}`);

  const abort = new AbortController();
  /** This relay's turn as the publisher: aborted when the lock is lost. */
  let turn: AbortController | null = null;
  /** Sessions lost so far: a loss heard while a lock attempt was under way voids what it answered. */
  let losses = 0;
  let subscription: Subscription | null = null;
  const session = new AdvisoryLockSession({
    connectionString: options.databaseUrl,
    applicationName: feedSessionName(name),
    lockClass: FEED_LOCK_CLASS,
    logger,
    label: 'feed lock session',
    stopped: () => abort.signal.aborted,
    // the lock went with the session: no batch may start, and the subscription ends after the one in hand
    lost: () => {
      losses++;
      turn?.abort();
      void subscription?.stop();
    },
  });

  let start: FeedCheckpoint;
  try {
    await migrateFeedCheckpoints(session, name);
    start = await readFeedCheckpoint(session, name);
  } catch (error) {
    await session.close();
    throw error;
  }
  let role: FeedRelayRole = 'standby';
  let checkpoint = start.position;
  let published = start.published;
  let failing: string | null = null;

  const failed = (error: unknown) => (failing = error instanceof Error ? error.message : String(error));

  async function publishBatch(events: readonly RecordedEvent[], own: AbortController): Promise<void> {
    const messages = events.map(feedMessage);
    for (let pause = firstMs; ; pause = Math.min(pause * 2, maxMs)) {
      if (abort.signal.aborted) throw new RelayStopped();
      if (own.signal.aborted) throw new LockLost();
      try {
        await publisher.publish(messages);
        break;
      } catch (error) {
        failed(error);
        logger.warn({ err: error, events: messages.length, retryInMs: pause }, 'feed publish failed; sending the batch again');
        await abortableSleep(pause, AbortSignal.any([abort.signal, own.signal]));
      }
    }
    // acknowledged, but the lock moved meanwhile: the checkpoint is the next holder's to move
    if (own.signal.aborted) throw new LockLost();
    const last = events.at(-1)!.position;
    if (!(await advanceFeedCheckpoint(session, name, last, events.length))) {
      own.abort();
      throw new LockLost();
    }
    checkpoint = last;
    published += BigInt(events.length);
    failing = null;
  }

  /** One turn as the publisher: from the checkpoint as the database has it now, until the lock is lost or the relay stops. */
  async function publishWhileHolding(own: AbortController): Promise<void> {
    const from = await readFeedCheckpoint(session, name);
    checkpoint = from.position;
    published = from.published;
    if (own.signal.aborted) throw new LockLost();
    role = 'active';
    logger.info({ feed: name, from: positionToken(checkpoint) }, "feed relay holds the feed's lock: publishing from its checkpoint");
    subscription = store.subscribe({ after: checkpoint, batchSize: maxInFlight, open: [], onBatch: (events) => publishBatch(events, own) });
    if (abort.signal.aborted || own.signal.aborted) await subscription.stop();
    await subscription.done;
    if (own.signal.aborted) throw new LockLost();
  }

  const running = (async () => {
    let saidStandby = false;
    for (let pause = firstMs; !abort.signal.aborted;) {
      try {
        // a turn that ended on an error keeps its lock (the session still holds it): no second take
        if (turn === null || turn.signal.aborted) {
          turn = null;
          const lossesBefore = losses;
          logger.debug({ feed: name }, "feed relay tries the feed's lock");
          if (!(await session.tryLock(name))) {
            role = 'standby';
            // what the status shows meanwhile: the active relay's checkpoint
            ({ position: checkpoint, published } = await readFeedCheckpoint(session, name));
            failing = null;
            pause = firstMs;
            if (!saidStandby) logger.info({ feed: name, retryMs: standbyRetryMs }, "another relay holds the feed's lock: standing by");
            saidStandby = true;
            await abortableSleep(standbyRetryMs, abort.signal);
            continue;
          }
          turn = new AbortController();
          // the session ended as the lock was granted: the lock went with it
          if (losses !== lossesBefore) turn.abort();
          if (saidStandby) logger.info({ feed: name }, "feed relay took over the feed's lock");
          saidStandby = false;
        }
        await publishWhileHolding(turn);
      } catch (error) {
        if (abort.signal.aborted) break;
        if (!(error instanceof LockLost) && !turn?.signal.aborted) {
          failed(error);
          logger.error({ err: error, retryInMs: pause }, 'feed relay failed; following the log again from its checkpoint');
          await abortableSleep(pause, abort.signal);
          pause = Math.min(pause * 2, maxMs);
          // a failure may be the first sign of a lost session, whose end is heard a moment later
          if (!turn?.signal.aborted) continue;
        }
        role = 'standby';
        turn = null;
        logger.warn({ feed: name, retryInMs: LOST_LOCK_PAUSES * standbyRetryMs }, "feed relay lost the feed's lock (its session ended): publishing stopped");
        // a standby whose session held on takes over first; then this one tries again (its session connects anew, or fails and pauses below)
        await abortableSleep(LOST_LOCK_PAUSES * standbyRetryMs, abort.signal);
      }
    }
  })();

  logger.info({ feed: name, from: positionToken(checkpoint), maxInFlight }, 'feed relay started');
  return {
    status: () => ({ role, checkpoint, published, failing }),
    async stop() {
      abort.abort();
      await subscription?.stop();
      await running;
      // ending the session frees the lock at once: a standby takes over at its next try
      await session.close();
    },
  };
}

/**
 * The relay as a readiness check (`/readyz`): ready unless its last publish, read or lock attempt
 * failed, with its role and where it is. A standby is ready: it is there to take over.
 */
export function feedReadiness(relay: FeedRelay): () => Promise<{ ok: boolean; detail: unknown }> {
  return () => {
    const { role, checkpoint, published, failing } = relay.status();
    return Promise.resolve({
      ok: failing === null,
      detail: { role, checkpoint: positionToken(checkpoint), published: published.toString(), ...(failing !== null && { failing }) },
    });
  };
}
