import { positionToken } from '@forum/contracts';
import type { RecordedEvent } from '@forum/eventstore';
import { abortableSleep, batchJoin, inSpan } from '@forum/platform';
import { setTimeout as delay } from 'node:timers/promises';
import { CheckpointMoved, Halted, isTransient } from './build-errors.ts';
import { inBuildSchema, publishViews } from './build-schema.ts';
import { commitTo, tallyOf } from './checkpoint-commit.ts';
import { buildLabel, buildSchema, publishIfLive, readCheckpoint, type BuildKey, type BuildState, type CheckpointRow } from './checkpoints.ts';
import { lockKey } from './lock-session.ts';
import { applyOwn, createReadIndexes, type Projection } from './projection.ts';
import { finishReplay, stage } from './replay.ts';
import type { BuildProgress, RunnerContext, RunnerWorker, WorkerState } from './runner-context.ts';
import type { LogBatch } from './shared-log.ts';

/**
 * A live build that found none of its types in a batch looks at the log again after this long:
 * under a stream of other builds' events it moves its checkpoint at most about a hundred times a
 * second instead of once per commit. A reader asking for a position (X-Min-Position) of such a build
 * waits at most this much longer; a batch of its own types is followed at once.
 */
export const PASSING_PAUSE_MS = 10;

/** How often a worker says that it restarts after its database's unavailability (it tries again every second). */
const TRANSIENT_LOG_INTERVAL_MS = 60_000;

/** Runs one build: takes its lock (or stands by), prepares its schema, then replays or follows the log. */
export class Worker implements RunnerWorker {
  state: WorkerState = 'starting';
  /** This runner's lock session holds the build's advisory lock (taken once: it counts re-entries). */
  locked = false;
  readonly progress: BuildProgress;
  private loop: Promise<void> | null = null;
  /** Cuts the worker's current pause short (see `pause`). */
  private pausing: AbortController | null = null;
  private switchTimer: NodeJS.Timeout | null = null;
  /** Batches and switch attempts of this build, one at a time. */
  private serial: Promise<unknown> = Promise.resolve();
  /** When a restart after a transient error was last said (sayRestarting). */
  private transientSaidAt = 0;

  constructor(
    private readonly context: RunnerContext,
    readonly projection: Projection,
    readonly key: BuildKey,
    role: BuildState,
  ) {
    this.progress = {
      projection,
      key,
      schema: buildSchema(key),
      log: context.logger.child({ projection: key.name, version: key.version, build: key.build }),
      role,
      position: null,
      replaying: false,
      tailPending: false,
      waitedForIndexes: false,
      staging: false,
      atTail: false,
      stagedFrom: null,
      subscription: null,
    };
  }

  /** Runs until stopped or retired; calls `ready` after the first lock attempt. */
  run(ready: () => void) {
    const { context, progress } = this;
    this.loop = (async () => {
      while (!context.stopped) {
        try {
          const owner = await this.tryLock();
          if (!owner) {
            if (this.state !== 'standby') progress.log.info('another runner owns this build: standing by');
            this.state = 'standby';
            ready();
            await this.pause(context.settings.standbyRetryMs);
            continue;
          }
          const row = await this.prepare();
          if (!row) break; // retired: someone switched past it
          this.state = 'running';
          ready();
          await this.follow();
        } catch (error) {
          if (context.stopped) break;
          if (error instanceof Halted) {
            this.state = 'halted';
            ready();
            return; // halted until restarted; the lock stays with us so no other runner retries it blindly
          }
          if (!(error instanceof CheckpointMoved)) this.sayRestarting(error);
          await this.pause(error instanceof CheckpointMoved ? 0 : 1000);
        }
      }
      this.state = 'stopped';
      ready();
      context.workers.delete(lockKey(this.key));
      await this.unlock();
    })();
  }

  /**
   * Says that the worker restarts after `error`. One its database's unavailability caused (a lost
   * connection, a full disk) comes back every second while it lasts, which may be hours: it is
   * said at most once every TRANSIENT_LOG_INTERVAL_MS.
   */
  private sayRestarting(error: unknown) {
    if (isTransient(error)) {
      if (Date.now() - this.transientSaidAt < TRANSIENT_LOG_INTERVAL_MS) return;
      this.transientSaidAt = Date.now();
    }
    this.progress.log.warn({ err: error }, 'projection worker restarting');
  }

  private async tryLock(): Promise<boolean> {
    if (this.locked) return true;
    this.locked = await this.context.locks.tryLock(lockKey(this.key));
    return this.locked;
  }

  private async unlock() {
    if (!this.locked || !this.context.locks.isOpen || this.context.stopped) return;
    this.locked = false;
    await this.context.locks.unlock(lockKey(this.key));
  }

  /** Creates the build's tables; a live build (re)publishes its views. Null when the build is retired. */
  private async prepare(): Promise<CheckpointRow | null> {
    const { context, progress, projection } = this;
    const { db, store } = context;
    const { schema } = progress;
    const row = await readCheckpoint(db, this.key);
    if (!row || row.state === 'retired') {
      progress.log.info('build retired: stopping');
      return null;
    }
    if (row.discarded) {
      progress.log.error({ error: row.error }, 'build discarded: its replay did not account for the log; a new rebuild replaces it');
      throw new Halted(row.error ?? 'discarded');
    }
    // Builds, and live builds far behind (a first start on an imported log), replay the log
    // through the shared reader in big batches; a live build near the head follows it on its own
    progress.replaying =
      row.state === 'building' || Number((await store.head()).globalPosition - row.position.globalPosition) > context.settings.buildBatchSize;
    progress.tailPending = progress.replaying;
    // A projection with a staged replay stages the log range by range where its tables hold nothing
    // the ordinary way wrote: a blue-green build, and a live build that begins a log far ahead of it
    // (a first start on a loaded or imported log); one that had begun staging goes on to settle it
    const beginsFarBehind = progress.replaying && row.position.globalPosition === 0n;
    progress.staging = (row.state === 'building' || beginsFarBehind || row.stagedFrom !== null) && projection.replay !== undefined && context.sqlLog !== null;
    await inBuildSchema(db, schema, async (trx) => {
      await trx.raw(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await projection.migrate(trx);
      if (!progress.tailPending) await createReadIndexes(trx, projection);
    });
    if (row.error) progress.log.info({ failedPosition: row.failedPosition && positionToken(row.failedPosition) }, 'resuming a halted build');
    const published = await db.transaction(async (trx) => {
      // the row may be stale: a switch since then retired this build, and its views are the new build's
      if (row.state === 'live' && !(await publishIfLive(trx, this.key, (t) => publishViews(t, projection, schema)))) return false;
      await trx.raw(
        `UPDATE projections.checkpoints SET error = NULL, failed_tx = NULL, failed_pos = NULL, updated_at = now()
         WHERE name = ? AND version = ? AND build = ? AND error IS NOT NULL`,
        [this.key.name, this.key.version, this.key.build],
      );
      return true;
    });
    if (!published) {
      progress.log.info('build retired: stopping');
      return null;
    }
    progress.role = row.state;
    progress.position = row.position;
    progress.stagedFrom = row.stagedFrom;
    return row;
  }

  private async follow() {
    const { context, progress } = this;
    const { batchSize, passingPauseMs } = context.settings;
    if (progress.staging) await this.inTurn(() => stage(context, progress));
    if (context.stopped) return;
    const onBatch = (batch: LogBatch) => this.inTurn(() => this.applyBatch(batch));
    progress.atTail = false;
    const caughtUp = () => {
      if (progress.atTail) return;
      progress.atTail = true;
      void this.inTurn(() => finishReplay(context, progress)).catch(() => {});
    };
    const subscription = progress.replaying
      ? context.buildReader.subscribe({ after: progress.position!, types: this.projection.types, onBatch, onCaughtUp: caughtUp })
      : context.store.subscribe({
          after: progress.position!,
          batchSize,
          // the personal data of the types it keeps, not of every event it passes over
          open: this.projection.opens ?? this.projection.types,
          onBatch: async (events) => {
            await onBatch({ events, upTo: events.at(-1)!.position });
            // Passing over a busy log of other builds' types: the next look waits a moment, so
            // the checkpoint moves in fewer, longer steps; a batch of its own types goes on at once
            if (events.length < batchSize && !events.some((event) => this.projection.types.includes(event.type))) await delay(passingPauseMs);
          },
        });
    progress.subscription = subscription;
    // stop() may have come while this build was between subscriptions: it found none to stop
    if (context.stopped) void subscription.stop();
    // At the tail, a build that is not ahead of the live one yet tries again shortly
    if (progress.replaying) {
      this.switchTimer = setInterval(() => {
        if (progress.atTail) void this.inTurn(() => finishReplay(context, progress)).catch(() => {});
      }, 500);
    }
    try {
      await subscription.done;
    } finally {
      progress.subscription = null;
      if (this.switchTimer) clearInterval(this.switchTimer);
      this.switchTimer = null;
    }
    if (!context.stopped) throw new CheckpointMoved('subscription ended');
  }

  private inTurn<T>(step: () => Promise<T>): Promise<T> {
    const next = this.serial.then(step);
    this.serial = next.catch(() => {});
    return next;
  }

  /**
   * Applies a batch, inside a span when it holds events of the projection's types
   * (docs/operations.md#traces): the child of the command that wrote them when one did, else linked
   * to each; a batch that only passes other types by is not traced (under a busy log, a hundred a second).
   */
  private applyBatch(batch: LogBatch) {
    const { key, progress, projection } = this;
    const own = batch.events.filter((event) => projection.types.includes(event.type));
    if (own.length === 0) return this.applyEvents(batch);
    return inSpan(
      `projection ${key.name}`,
      {
        ...batchJoin(own),
        attributes: () => ({
          'forum.projection.name': key.name,
          'forum.projection.version': key.version,
          'forum.projection.build': key.build,
          'forum.projection.events': own.length,
          'forum.projection.replaying': progress.replaying,
          'forum.position.from': positionToken(own[0]!.position),
          'forum.position.to': positionToken(batch.upTo),
        }),
      },
      () => this.applyEvents(batch),
    );
  }

  /** Applies the events read up to `upTo` (those of other types passed by). */
  private async applyEvents({ events, upTo }: LogBatch) {
    const { types } = this.projection;
    const apply = (batch: readonly RecordedEvent[], to = batch.at(-1)!.position) =>
      commitTo(
        this.context,
        this.progress,
        to,
        batch.some((event) => types.includes(event.type))
          ? async (trx) => {
              await applyOwn(trx, this.projection, batch);
              return tallyOf(batch, types);
            }
          : null,
      );
    try {
      await apply(events, upTo);
    } catch (error) {
      if (error instanceof CheckpointMoved || isTransient(error) || events.length <= 1) {
        if (events.length === 1 && !(error instanceof CheckpointMoved) && !isTransient(error)) await this.halt(events[0]!, error);
        throw error;
      }
      // Find the event that fails: everything before it is applied and checkpointed
      for (const event of events) {
        try {
          await apply([event]);
        } catch (single) {
          if (!(single instanceof CheckpointMoved) && !isTransient(single)) await this.halt(event, single);
          throw single;
        }
      }
      await apply([], upTo);
    }
    // more of the log came: the tail is further on
    this.progress.atTail = false;
  }

  private async halt(event: RecordedEvent, error: unknown) {
    const { db } = this.context;
    // A build retired under us fails on its dropped tables: that is the end of the build, not a poison event
    const row = await readCheckpoint(db, this.key);
    if (!row || row.state === 'retired') throw new CheckpointMoved(`${buildLabel(this.key)} was retired`);
    const message = error instanceof Error ? error.message : String(error);
    this.progress.log.error(
      { err: error, position: positionToken(event.position), type: event.type, streamId: event.streamId },
      'projection halted on an event it cannot apply',
    );
    await db.raw(
      `UPDATE projections.checkpoints SET error = ?, failed_tx = ?::text::xid8, failed_pos = ?, updated_at = now()
       WHERE name = ? AND version = ? AND build = ?`,
      [
        `${event.type} in ${event.streamId}: ${message}`,
        event.position.transactionId.toString(),
        event.position.globalPosition.toString(),
        this.key.name,
        this.key.version,
        this.key.build,
      ],
    );
    throw new Halted(message);
  }

  private pause(ms: number) {
    this.pausing = new AbortController();
    return abortableSleep(ms, this.pausing.signal);
  }

  restart() {
    void this.progress.subscription?.stop();
  }

  async stop() {
    this.pausing?.abort();
    await this.progress.subscription?.stop();
    await this.loop;
  }
}
