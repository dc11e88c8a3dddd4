import type { LogPosition } from '@forum/contracts';
import { CoalescingNotifier, type EventStore, type SqlLog, type Subscription } from '@forum/eventstore';
import { prepared, type AdvisoryLockSession, type Knex, type Logger } from '@forum/platform';
import type DataLoader from 'dataloader';
import { batchedCheckpointMoves, type CheckpointMove, type Moved } from './checkpoint-moves.ts';
import type { BuildKey, BuildState } from './checkpoints.ts';
import { projectionLockSession } from './lock-session.ts';
import { CHECKPOINTS_CHANNEL, type Projection } from './projection.ts';
import { stagedRangesOf, type StagedRanges } from './staged-ranges.ts';
import { SharedLogReader } from './shared-log.ts';

export interface RunnerSettings {
  batchSize: number;
  passingPauseMs: number;
  buildBatchSize: number;
  stageRangeSize: number;
  standbyRetryMs: number;
  only?: 'building';
}

/** What the parts of one runner share: its settings and connections, and the little state that changes. */
export interface RunnerContext {
  readonly db: Knex;
  readonly store: EventStore;
  readonly logger: Logger;
  readonly projections: readonly Projection[];
  readonly settings: RunnerSettings;
  /** Set once, by `stop`: every part winds down. */
  stopped: boolean;
  /** The log in SQL, when it is in the read models' database (learnt at start). */
  sqlLog: SqlLog | null;
  /** This runner's workers, by `lockKey`. */
  readonly workers: Map<string, RunnerWorker>;
  readonly locks: AdvisoryLockSession;
  readonly buildReader: SharedLogReader;
  readonly stagedRanges: StagedRanges;
  readonly checkpointMoves: DataLoader<CheckpointMove, Moved | null>;
  /** Tells readers of a live build's new checkpoint: this process at once, others by NOTIFY. */
  notifyCheckpoint(payload: string): void;
  readonly onCheckpoint?: (notification: string) => void;
}

export type WorkerState = 'starting' | 'standby' | 'running' | 'halted' | 'stopped';

/** One build's worker (worker.ts) as the runner's other parts see it. */
export interface RunnerWorker {
  readonly key: BuildKey;
  readonly projection: Projection;
  readonly progress: BuildProgress;
  readonly state: WorkerState;
  /** Holds its build's advisory lock in the runner's lock session. */
  locked: boolean;
  /** Ends its turn and starts over from its checkpoint (a lost lock, a retired build). */
  restart(): void;
  stop(): Promise<void>;
}

/** Where one worker is with its build: what its parts (following, replay, switch) read and move. */
export interface BuildProgress {
  readonly projection: Projection;
  readonly key: BuildKey;
  readonly schema: string;
  readonly log: Logger;
  role: BuildState;
  position: LogPosition | null;
  /** Replaying the log (a build, or a live build far behind) rather than following its head. */
  replaying: boolean;
  /** The read indexes and the tables' statistics wait for the end of the replay. */
  tailPending: boolean;
  /** Its switch has waited for readers to be able to use its indexes (said once). */
  waitedForIndexes: boolean;
  /** A build no one reads yet stages the log set-wise (the projection's cheaper way), then settles. */
  staging: boolean;
  /** The shared reader found nothing past this build's checkpoint: time to finish the replay. */
  atTail: boolean;
  /** Where an earlier run's staging began, not yet counted (see `stage`), as the row said at `prepare`. */
  stagedFrom: LogPosition | null;
  subscription: Subscription | null;
}

export function createRunnerContext(
  options: {
    db: Knex;
    connectionString: string;
    store: EventStore;
    projections: readonly Projection[];
    logger: Logger;
    onCheckpoint?: (notification: string) => void;
  },
  settings: RunnerSettings,
): RunnerContext {
  const { db } = options;
  // one notification per build (its schema, before the first ':'), the latest: a reader waiting on
  // one build's position learns it, and its count of applied events only grows (see checkpointNotice)
  const checkpointNotifier = new CoalescingNotifier(
    (payloads) => prepared(db, 'SELECT pg_notify(?, payload) FROM unnest(?::text[]) AS payload', [CHECKPOINTS_CHANNEL, [...payloads]]),
    (payload) => payload.slice(0, payload.indexOf(':')),
  );
  const context: RunnerContext = {
    db,
    store: options.store,
    logger: options.logger,
    projections: options.projections,
    settings,
    stopped: false,
    sqlLog: null,
    workers: new Map(),
    locks: projectionLockSession(options.connectionString, options.logger, {
      stopped: () => context.stopped,
      lost: () => {
        for (const worker of context.workers.values()) {
          worker.locked = false;
          worker.restart();
        }
      },
    }),
    buildReader: new SharedLogReader(options.store, settings.buildBatchSize),
    stagedRanges: stagedRangesOf(options.projections, settings.stageRangeSize),
    checkpointMoves: batchedCheckpointMoves(db),
    notifyCheckpoint(payload) {
      options.onCheckpoint?.(payload);
      checkpointNotifier.notify(payload);
    },
    onCheckpoint: options.onCheckpoint,
  };
  return context;
}
