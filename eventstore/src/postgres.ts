import {
  createLogger,
  createPgPool,
  IDLE_IN_TRANSACTION_TIMEOUT_MS,
  listenForNotifications,
  pgPoolUse,
  REQUEST_QUERY_TIMEOUT_MS,
  type Logger,
  type Metrics,
  type NotificationListener,
} from '@forum/platform';
import { createAppends } from './append.ts';
import { readHistory } from './history.ts';
import { CoalescingNotifier, NOTIFY_ALL } from './notifier.ts';
import { createReads, eventsBeyond } from './read.ts';
import { migrateEventStore } from './schema.ts';
import { sqlLog } from './sql-log.ts';
import { runSubscription, WaitingSubscribers } from './subscription.ts';
import type { EventStore, StreamAppend, SubscribeOptions, Subscription } from './types.ts';

export const EVENTS_CHANNEL = 'forum_events';

export interface PostgresEventStoreOptions {
  connectionString: string;
  poolSize?: number;
  /** How long a command's reads and appends wait for PostgreSQL's answer (REQUEST_QUERY_TIMEOUT_MS by default). */
  queryTimeoutMs?: number;
  /** How long an append's transaction may sit idle before PostgreSQL ends it (IDLE_IN_TRANSACTION_TIMEOUT_MS by default). */
  idleInTransactionTimeoutMs?: number;
  /** How long an idle subscriber waits for a NOTIFY before it looks anyway. */
  pollIntervalMs?: number;
  /** Where the LISTEN session says it lost its connection (none by default). */
  logger?: Logger;
  /** Tests only: runs inside every writing transaction, just before COMMIT. */
  beforeCommit?: (appends: readonly StreamAppend[]) => Promise<void>;
  /** The process's metrics: its appends and its two pools (`eventstore`, `eventstore-log`) go into them. */
  metrics?: Metrics;
}

/**
 * The event store on PostgreSQL, composed of its parts: the schema (schema.ts, history.ts), appends
 * (append.ts), reads (read.ts, history.ts), the log in SQL for staged replays (sql-log.ts) and
 * subscriptions (subscription.ts).
 *
 * - `streams` holds each stream's version; the row lock it takes serialises
 *   writers of one stream and checks the expected version without a race.
 * - `events` records the writing transaction's id (xid8). Readers of the global
 *   log read only rows below the oldest transaction still running
 *   (pg_snapshot_xmin), ordered by (transaction_id, global_position), so an
 *   event whose transaction commits late is never skipped.
 */
export async function createPostgresEventStore(options: PostgresEventStoreOptions): Promise<EventStore> {
  const { connectionString } = options;
  const poolSize = options.poolSize ?? 10;
  // Two pools: commands' stream reads and appends give up on a server that does not answer (a stall
  // answers 503 rather than hangs); the log's long reads (subscriptions, staged replays, history) and
  // migrations take what they take.
  const requests = createPgPool({
    connectionString,
    max: poolSize,
    application_name: 'forum-eventstore',
    query_timeout: options.queryTimeoutMs ?? REQUEST_QUERY_TIMEOUT_MS,
    // a command stopped inside its transaction holds back the log's readers until this ends it
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? IDLE_IN_TRANSACTION_TIMEOUT_MS,
  });
  const pool = createPgPool({ connectionString, max: Math.max(2, Math.ceil(poolSize / 4)), application_name: 'forum-eventstore-log' });
  await migrateEventStore(pool);
  options.metrics?.watchPool('eventstore', pgPoolUse(requests));
  options.metrics?.watchPool('eventstore-log', pgPoolUse(pool));
  const notifier = new CoalescingNotifier((payloads) => pool.query({ name: 'forum_notify_all', text: NOTIFY_ALL, values: [EVENTS_CHANNEL, payloads] }));
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const subscribers = new WaitingSubscribers();

  // Other processes' commits reach this one's subscribers by NOTIFY; the session opens when the first
  // subscriber catches up, and a new session wakes them all, since a commit may have gone unheard.
  let listener: NotificationListener | null = null;
  function waitForCommit(timeoutMs: number, abort: AbortSignal): Promise<void> {
    listener ??= listenForNotifications({
      connectionString: options.connectionString,
      channels: [EVENTS_CHANNEL],
      applicationName: 'forum-eventstore-listen',
      logger: options.logger ?? createLogger('eventstore', 'silent'),
      onNotification: () => subscribers.wakeAll(),
      onListening: () => subscribers.wakeAll(),
    });
    return subscribers.wait(timeoutMs, abort);
  }

  const store: EventStore = {
    ...createAppends(requests, {
      beforeCommit: options.beforeCommit,
      metrics: options.metrics,
      /** After a commit: wake this process's subscribers now, and other processes' through NOTIFY. */
      committed: () => {
        subscribers.wakeAll();
        notifier.notify();
      },
    }),
    ...createReads(pool),
    readStream: createReads(requests).readStream,
    readHistory: readHistory(pool),

    subscribe(subscribeOptions: SubscribeOptions): Subscription {
      return runSubscription(store, eventsBeyond(pool), waitForCommit, pollIntervalMs, subscribeOptions);
    },

    sql: sqlLog(pool),

    async close() {
      await listener?.close();
      subscribers.wakeAll();
      await Promise.all([requests.end(), pool.end()]);
    },
  };
  return store;
}
