import type { LogPosition } from '@forum/contracts';
import type { EventStore } from '@forum/eventstore';
import { listenForNotifications, type Knex, type Logger, type NotificationListener } from '@forum/platform';
import { createBuildDiscovery } from './builds.ts';
import { migrateCheckpoints, type BuildKey, type BuildState } from './checkpoints.ts';
import { CONTROL_CHANNEL, sqlLogIn, STAGE_RANGE_SIZE, type Projection } from './projection.ts';
import { createRunnerContext, type WorkerState } from './runner-context.ts';
import { PASSING_PAUSE_MS } from './worker.ts';

export { PASSING_PAUSE_MS, type WorkerState };

export interface RunnerOptions {
  db: Knex;
  /** For the session that holds the advisory locks (one runner per build) and the one that listens for new builds. */
  connectionString: string;
  store: EventStore;
  projections: readonly Projection[];
  logger: Logger;
  batchSize?: number;
  /** How long a live build waits to look again after a batch with none of its types (PASSING_PAUSE_MS). */
  passingPauseMs?: number;
  /** Batch size while a build replays the log (bigger batches, fewer commits). */
  buildBatchSize?: number;
  /** Events per transaction (and checkpoint) while a build stages the log set-wise (see `Projection.replay`). */
  stageRangeSize?: number;
  /** How often a standby runner tries to take over, and how often new builds are looked for. */
  standbyRetryMs?: number;
  /** `building`: work only on builds being built (forumctl rebuild), leaving the live ones to the forum's runner. */
  only?: 'building';
  /**
   * Hears this runner's checkpoint notifications at once (a query side in this process), as
   * other processes hear them by NOTIFY on CHECKPOINTS_CHANNEL, which a busy runner sends at most
   * every NOTIFY_GAP_MS.
   */
  onCheckpoint?: (notification: string) => void;
}

export interface WorkerInfo extends BuildKey {
  role: BuildState;
  state: WorkerState;
  position: LogPosition | null;
}

export interface ProjectionRunner {
  /** Resolves once every build has either taken its lock or gone to standby. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** What this process is doing with each build it knows of. */
  workers(): WorkerInfo[];
  /** Looks for new builds now (a rebuild request) instead of at the next poll. */
  sync(): Promise<void>;
}

/**
 * One worker per build of `projections` (worker.ts), each holding its build's advisory lock on
 * one shared session (lock-session.ts); builds are looked for (builds.ts) at start, on a poll,
 * on a NOTIFY on CONTROL_CHANNEL and each time a LISTEN session begins, since a request sent
 * while none listened went unheard. That session is apart from the locks: losing it stops no worker.
 */
export function createProjectionRunner(options: RunnerOptions): ProjectionRunner {
  const { db, store, logger } = options;
  const standbyRetryMs = options.standbyRetryMs ?? 2000;
  const settings = {
    batchSize: options.batchSize ?? 500,
    passingPauseMs: options.passingPauseMs ?? PASSING_PAUSE_MS,
    buildBatchSize: options.buildBatchSize ?? 5000,
    stageRangeSize: options.stageRangeSize ?? STAGE_RANGE_SIZE,
    standbyRetryMs,
    only: options.only,
  };
  const context = createRunnerContext(options, settings);
  const builds = createBuildDiscovery(context);
  const lookForBuilds = () => void builds.sync().catch((error) => logger.warn({ err: error }, 'looking for projection builds failed'));
  let poller: NodeJS.Timeout | null = null;
  let listener: NotificationListener | null = null;

  return {
    async start() {
      await migrateCheckpoints(db);
      context.sqlLog = await sqlLogIn(db, store);
      await builds.sync();
      listener = listenForNotifications({
        connectionString: options.connectionString,
        channels: [CONTROL_CHANNEL],
        applicationName: 'forum-projection-control',
        logger,
        onNotification: lookForBuilds,
        onListening: lookForBuilds,
      });
      // a failed first session is logged by the listener, which keeps trying; the poll covers meanwhile
      await listener.started.catch(() => {});
      poller = setInterval(lookForBuilds, standbyRetryMs);
      poller.unref();
    },
    async stop() {
      context.stopped = true;
      if (poller) clearInterval(poller);
      await listener?.close();
      await builds.settled();
      await Promise.all([...context.workers.values()].map((worker) => worker.stop()));
      await context.locks.close();
    },
    workers() {
      return [...context.workers.values()].map((w) => ({ ...w.key, role: w.progress.role, state: w.state, position: w.progress.position }));
    },
    sync: builds.sync,
  };
}
