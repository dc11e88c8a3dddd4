import { compareLogPositions, positionToken, type LogPosition } from '@forum/contracts';
import { CoalescingNotifier, ONE_TURN, type EventStore, type LogTally, type RecordedEvent, type SqlLog, type Subscription } from '@forum/eventstore';
import { abortableSleep, type Knex, type Logger } from '@forum/platform';
import { setTimeout as delay } from 'node:timers/promises';
import DataLoader from 'dataloader';
import pg from 'pg';
import {
  buildLabel,
  buildSchema,
  buildsToRun,
  discardBuild,
  liveBuild,
  migrateCheckpoints,
  publishIfLive,
  notifyRunners,
  readCheckpoint,
  switchToBuild,
  type BuildKey,
  type BuildState,
  type CheckpointRow,
} from './checkpoints.ts';
import {
  CHECKPOINTS_CHANNEL,
  CONTROL_CHANNEL,
  createReadIndexes,
  logRelation,
  READ_SCHEMA,
  REPLAY_SETTINGS,
  DEFERRED_SETTING,
  sqlLogIn,
  STAGE_RANGE_SIZE,
  stageRange,
  type Projection,
} from './projection.ts';
import { SharedLogReader, type LogBatch } from './shared-log.ts';
import { INDEX_NOT_YET_USABLE_SQL } from './status.ts';

export interface RunnerOptions {
  db: Knex;
  /** For the session that holds the advisory locks (one runner per build) and listens for new builds. */
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

export type WorkerState = 'starting' | 'standby' | 'running' | 'halted' | 'stopped';

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

/** Thrown when a batch finds its checkpoint moved or retired by someone else: this runner lost the build. */
class CheckpointMoved extends Error {}
/** The build stops where it is, its error recorded, until restarted (a poison event) or for good (discarded). */
class Halted extends Error {}

const NOTHING: LogTally = { events: 0n, positions: 0n };

/** The events of `types` among `events`, counted as `EventStore.tally` counts the log. */
function tallyOf(events: readonly RecordedEvent[], types: readonly string[]): LogTally {
  let count = 0n;
  let positions = 0n;
  for (const event of events) {
    if (!types.includes(event.type)) continue;
    count += 1n;
    positions += event.position.globalPosition;
  }
  return { events: count, positions };
}

const LOCK_CLASS = 4242;
/**
 * A live build that found none of its types in a batch looks at the log again after this long:
 * under a stream of other builds' events it moves its checkpoint at most about a hundred times a
 * second instead of once per commit. A reader asking for a position (X-Min-Position) of such a build
 * waits at most this much longer; a batch of its own types is followed at once.
 */
export const PASSING_PAUSE_MS = 10;

export function createProjectionRunner(options: RunnerOptions): ProjectionRunner {
  const { db, store, logger } = options;
  const batchSize = options.batchSize ?? 500;
  const passingPauseMs = options.passingPauseMs ?? PASSING_PAUSE_MS;
  const buildBatchSize = options.buildBatchSize ?? 5000;
  const stageRangeSize = options.stageRangeSize ?? STAGE_RANGE_SIZE;
  /** The log in SQL, when it is in the read models' database (learnt at start). */
  let sqlLog: SqlLog | null = null;
  const standbyRetryMs = options.standbyRetryMs ?? 2000;
  let lockClient: Promise<pg.Client> | null = null;
  /** The lock session's queries run one at a time (a pg client takes one query at once). */
  let lockQueue: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const workers = new Map<string, Worker>();
  const buildReader = new SharedLogReader(store, buildBatchSize);
  const stagedRanges = stagedRangesOf(options.projections, stageRangeSize);
  // one notification per build, the latest: a reader waiting on one build's position learns it
  const checkpointNotifier = new CoalescingNotifier(
    (payloads) => db.raw('SELECT pg_notify(?, payload) FROM unnest(?::text[]) AS payload', [CHECKPOINTS_CHANNEL, [...payloads]]),
    (payload) => payload.slice(0, payload.lastIndexOf(':')),
  );
  const notifyCheckpoint = (payload: string) => {
    options.onCheckpoint?.(payload);
    checkpointNotifier.notify(payload);
  };

  /**
   * Checkpoints moved alone (over batches of none of a build's types) in one turn of the event loop
   * move in one statement: the builds passing a busy log of other types wake, read and move
   * together. Each move keeps its own condition (the build and the position it moves from);
   * the answer says whether it moved.
   */
  const checkpointMoves = new DataLoader<{ key: BuildKey; from: LogPosition; to: LogPosition }, boolean>(
    async (moves) => {
      const { rows } = await db.raw<{ rows: { ord: string }[] }>(
        `UPDATE projections.checkpoints c SET tx = m.to_tx::xid8, pos = m.to_pos, updated_at = now()
         FROM unnest(?::text[], ?::integer[], ?::integer[], ?::text[], ?::bigint[], ?::text[], ?::bigint[])
              WITH ORDINALITY AS m(name, version, build, from_tx, from_pos, to_tx, to_pos, ord)
         WHERE c.name = m.name AND c.version = m.version AND c.build = m.build
           AND c.tx = m.from_tx::xid8 AND c.pos = m.from_pos AND c.state <> 'retired'
         RETURNING m.ord`,
        [
          moves.map((m) => m.key.name),
          moves.map((m) => m.key.version),
          moves.map((m) => m.key.build),
          moves.map((m) => m.from.transactionId.toString()),
          moves.map((m) => m.from.globalPosition.toString()),
          moves.map((m) => m.to.transactionId.toString()),
          moves.map((m) => m.to.globalPosition.toString()),
        ],
      );
      const moved = new Set(rows.map((row) => Number(row.ord) - 1));
      return moves.map((_, i) => moved.has(i));
    },
    ONE_TURN,
  );

  /** One session holds every advisory lock of this runner and listens for new builds. */
  function lockSession(): Promise<pg.Client> {
    if (stopped) return Promise.reject(new Error('the projection runner is stopped'));
    lockClient ??= (async () => {
      const client = new pg.Client({ connectionString: options.connectionString, application_name: 'forum-projection-locks' });
      client.on('error', (error) => {
        // Losing the session releases the locks: every worker must stop writing and start over
        logger.error({ err: error }, 'projection lock session lost');
        lockClient = null;
        for (const worker of workers.values()) {
          worker.locked = false;
          worker.restart();
        }
      });
      client.on('notification', () => void syncAll());
      await client.connect();
      await client.query(`LISTEN ${CONTROL_CHANNEL}`);
      return client;
    })().catch((error) => {
      lockClient = null;
      throw error;
    });
    return lockClient;
  }

  function onLockSession<T>(query: (client: pg.Client) => Promise<T>): Promise<T> {
    const attempt = lockQueue.then(async () => query(await lockSession()));
    lockQueue = attempt.catch(() => {});
    return attempt;
  }

  const lockKey = (key: BuildKey) => `${key.name}:${key.version}:${key.build}`;

  class Worker {
    state: WorkerState = 'starting';
    role: BuildState;
    /** This runner's lock session holds the build's advisory lock (taken once: it counts re-entries). */
    locked = false;
    /** Replaying the log (a build, or a live build far behind) rather than following its head. */
    private replaying = false;
    /** The read indexes and the tables' statistics wait for the end of the replay. */
    private tailPending = false;
    /** Its switch has waited for readers to be able to use its indexes (said once). */
    private waitedForIndexes = false;
    /** A build no one reads yet stages the log set-wise (the projection's cheaper way), then settles. */
    private staging = false;
    /** The shared reader found nothing past this build's checkpoint: time to finish the replay. */
    private atTail = false;
    position: LogPosition | null = null;
    /** Where an earlier run's staging began, not yet counted (see `stage`), as the row said at `prepare`. */
    private stagedFrom: LogPosition | null = null;
    private subscription: Subscription | null = null;
    private loop: Promise<void> | null = null;
    /** Cuts the worker's current pause short (see `pause`). */
    private pausing: AbortController | null = null;
    private switchTimer: NodeJS.Timeout | null = null;
    /** Batches and switch attempts of this build, one at a time. */
    private serial: Promise<unknown> = Promise.resolve();
    private readonly schema: string;
    private readonly log: Logger;

    constructor(
      readonly projection: Projection,
      readonly key: BuildKey,
      role: BuildState,
    ) {
      this.role = role;
      this.schema = buildSchema(key);
      this.log = logger.child({ projection: key.name, version: key.version, build: key.build });
    }

    /** Runs until stopped or retired; calls `ready` after the first lock attempt. */
    run(ready: () => void) {
      this.loop = (async () => {
        while (!stopped) {
          try {
            const owner = await this.tryLock();
            if (!owner) {
              if (this.state !== 'standby') this.log.info('another runner owns this build: standing by');
              this.state = 'standby';
              ready();
              await this.pause(standbyRetryMs);
              continue;
            }
            const row = await this.prepare();
            if (!row) break; // retired: someone switched past it
            this.state = 'running';
            ready();
            await this.follow();
          } catch (error) {
            if (stopped) break;
            if (error instanceof Halted) {
              this.state = 'halted';
              ready();
              return; // halted until restarted; the lock stays with us so no other runner retries it blindly
            }
            if (!(error instanceof CheckpointMoved)) this.log.warn({ err: error }, 'projection worker restarting');
            await this.pause(error instanceof CheckpointMoved ? 0 : 1000);
          }
        }
        this.state = 'stopped';
        ready();
        workers.delete(lockKey(this.key));
        await this.unlock();
      })();
    }

    private async tryLock(): Promise<boolean> {
      if (this.locked) return true;
      this.locked = await onLockSession(async (client) => {
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [LOCK_CLASS, lockKey(this.key)]);
        return rows[0]?.locked === true;
      });
      return this.locked;
    }

    private async unlock() {
      if (!this.locked || !lockClient || stopped) return;
      this.locked = false;
      await onLockSession((client) => client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, lockKey(this.key)])).catch(() => {});
    }

    /** Creates the build's tables; a live build (re)publishes its views. Null when the build is retired. */
    private async prepare(): Promise<CheckpointRow | null> {
      const { projection, schema } = this;
      const row = await readCheckpoint(db, this.key);
      if (!row || row.state === 'retired') {
        this.log.info('build retired: stopping');
        return null;
      }
      if (row.discarded) {
        this.log.error({ error: row.error }, 'build discarded: its replay did not account for the log; a new rebuild replaces it');
        throw new Halted(row.error ?? 'discarded');
      }
      // Builds, and live builds far behind (a first start on an imported log), replay the log
      // through the shared reader in big batches; a live build near the head follows it on its own
      this.replaying = row.state === 'building' || Number((await store.head()).globalPosition - row.position.globalPosition) > buildBatchSize;
      this.tailPending = this.replaying;
      this.staging = row.state === 'building' && projection.replay !== undefined && sqlLog !== null;
      await this.inSchema(async (trx) => {
        await trx.raw(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        await projection.migrate(trx);
        if (!this.tailPending) await createReadIndexes(trx, projection);
      });
      if (row.error) this.log.info({ failedPosition: row.failedPosition && positionToken(row.failedPosition) }, 'resuming a halted build');
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
        this.log.info('build retired: stopping');
        return null;
      }
      this.role = row.state;
      this.position = row.position;
      this.stagedFrom = row.stagedFrom;
      return row;
    }

    private async follow() {
      if (this.staging) await this.inTurn(() => this.stage());
      if (stopped) return;
      const onBatch = (batch: LogBatch) => this.inTurn(() => this.applyBatch(batch));
      this.atTail = false;
      const caughtUp = () => {
        if (this.atTail) return;
        this.atTail = true;
        void this.inTurn(() => this.finishReplay()).catch(() => {});
      };
      const subscription = this.replaying
        ? buildReader.subscribe({ after: this.position!, types: this.projection.types, onBatch, onCaughtUp: caughtUp })
        : store.subscribe({
            after: this.position!,
            batchSize,
            onBatch: async (events) => {
              await onBatch({ events, upTo: events.at(-1)!.position });
              // Passing over a busy log of other builds' types: the next look waits a moment, so
              // the checkpoint moves in fewer, longer steps; a batch of its own types goes on at once
              if (events.length < batchSize && !events.some((event) => this.projection.types.includes(event.type))) await delay(passingPauseMs);
            },
          });
      this.subscription = subscription;
      // stop() may have come while this build was between subscriptions: it found none to stop
      if (stopped) void subscription.stop();
      // At the tail, a build that is not ahead of the live one yet tries again shortly
      if (this.replaying) {
        this.switchTimer = setInterval(() => {
          if (this.atTail) void this.inTurn(() => this.finishReplay()).catch(() => {});
        }, 500);
      }
      try {
        await subscription.done;
      } finally {
        this.subscription = null;
        if (this.switchTimer) clearInterval(this.switchTimer);
        this.switchTimer = null;
      }
      if (!stopped) throw new CheckpointMoved('subscription ended');
    }

    /** A transaction whose search_path is the build's schema, so the projection's SQL names its tables bare. */
    private inSchema<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
      return db.transaction(async (trx) => {
        await trx.raw(`SET LOCAL search_path TO "${this.schema}", public`);
        return work(trx);
      });
    }

    private inTurn<T>(step: () => Promise<T>): Promise<T> {
      const next = this.serial.then(step);
      this.serial = next.catch(() => {});
      return next;
    }

    /** Applies the events read up to `upTo` (those of other types passed by). */
    private async applyBatch({ events, upTo }: LogBatch) {
      const { types } = this.projection;
      const apply = (batch: readonly RecordedEvent[], to = batch.at(-1)!.position) =>
        this.commit(
          to,
          batch.some((event) => types.includes(event.type))
            ? async (trx) => {
                await this.projection.apply(trx, batch);
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
      this.atTail = false;
    }

    /**
     * A build stages the log range by range, each with its checkpoint in one transaction, up to the
     * log's tail as it was found (or an event only the ordinary way reads), then settles; the ordinary way goes on
     * from there. A range that fails to stage (bad data in an event) is left to the ordinary way
     * too, which finds the event and halts on it.
     */
    private async stage() {
      const started = performance.now();
      let events = 0;
      // The staged stretch is counted once, from the log, when staging ends (counting each range's
      // relation cost a tenth of the staging); where it began is kept with the checkpoint until
      // then, so a build restarted part way still counts it all
      const stagedFrom = this.stagedFrom ?? this.position!;
      await db.raw(`UPDATE projections.checkpoints SET staged_from = ? WHERE name = ? AND version = ? AND build = ? AND staged_from IS NULL`, [
        positionToken(stagedFrom),
        this.key.name,
        this.key.version,
        this.key.build,
      ]);
      while (!stopped) {
        const next = await stagedRanges.next(sqlLog!, this.position!);
        if (!next) break;
        // ranges follow one another with nothing between them: the count from the log holds
        if (compareLogPositions(next.range.after, this.position!) !== 0) {
          throw new Error(`a staged range starts at ${positionToken(next.range.after)}, not at the build's ${positionToken(this.position!)}`);
        }
        try {
          await this.commit(next.range.upTo, (trx) => stageRange(trx, this.projection, sqlLog!, next.range));
        } catch (error) {
          if (error instanceof CheckpointMoved || isTransient(error)) throw error;
          this.log.warn({ err: error, after: positionToken(next.range.after) }, 'a range of the log did not stage: the ordinary way goes on from there');
          break;
        }
        events += next.events;
        // a short range reached the tail: the ordinary way follows whatever the log gains meanwhile
        if (next.events < stageRangeSize) break;
      }
      if (stopped) return;
      await this.countStaged(stagedFrom);
      const staged = performance.now();
      const stepsMs = await Promise.all(
        this.projection.replay!.settle.map((step) =>
          this.inSchema(async (trx) => {
            await trx.raw(REPLAY_SETTINGS);
            await trx.raw(DEFERRED_SETTING);
            await step(trx, sqlLog!);
            return Math.round(performance.now() - staged);
          }),
        ),
      );
      // what comes after (the log's new events until the switch) is applied the ordinary way
      this.staging = false;
      this.log.info({ events, stagedMs: Math.round(staged - started), settledMs: Math.round(performance.now() - staged), stepsMs }, 'replay staged and settled');
    }

    /** Counts the staged stretch, from `from` to the build's position, in `applied` (see `stage`). */
    private async countStaged(from: LogPosition) {
      const to = this.position!;
      const tally = store.tally && compareLogPositions(from, to) < 0 ? await this.stretchTally(from, to) : NOTHING;
      const { rowCount } = await db.raw(
        `UPDATE projections.checkpoints SET staged_from = NULL, applied_events = applied_events + ?::bigint, applied_positions = applied_positions + ?::numeric
         WHERE name = ? AND version = ? AND build = ? AND staged_from = ? AND tx = ?::text::xid8 AND pos = ?`,
        [tally.events.toString(), tally.positions.toString(), this.key.name, this.key.version, this.key.build, positionToken(from), to.transactionId.toString(), to.globalPosition.toString()],
      );
      if (rowCount !== 1) throw new CheckpointMoved(`checkpoint of ${buildLabel(this.key)} moved or retired under us`);
    }

    private async stretchTally(from: LogPosition, to: LogPosition): Promise<LogTally> {
      const [end, start] = await Promise.all([store.tally!(this.projection.types, to), store.tally!(this.projection.types, from)]);
      return { events: end.events - start.events, positions: end.positions - start.positions };
    }

    /**
     * At the tail of a replay: the read indexes are built and the tables
     * analysed, then a build takes the live one's place, and a live build goes
     * back to following the head in small batches.
     */
    private async finishReplay() {
      if (!this.replaying || stopped) return;
      if (this.tailPending) {
        const started = performance.now();
        const run = (statement: string, bindings: readonly string[] = []) => this.inSchema((trx) => trx.raw(statement, bindings));
        const indexes = this.projection.indexes ?? {};
        let indexedMs = 0;
        // Each table's indexes, then its statistics (tables just filled have none until autovacuum
        // comes by, a minute or more: the planner would guess, and might scan a whole table for one
        // post's comments), each statement in a transaction of its own: all tables at once, on the
        // cores the replay leaves. A table's analysis waits only for its own indexes (it cannot run
        // beside them: their locks conflict).
        const tables = new Set([...(await tablesIn(db, this.schema)), ...Object.keys(indexes)]);
        await Promise.all(
          [...tables].map(async (table) => {
            await Promise.all((indexes[table] ?? []).map((statement) => run(statement)));
            indexedMs = Math.max(indexedMs, Math.round(performance.now() - started));
            await run('ANALYZE ??', [table]);
          }),
        );
        if (this.projection.afterReplay) await this.inSchema((trx) => this.projection.afterReplay!(trx));
        this.tailPending = false;
        this.log.info({ ms: Math.round(performance.now() - started), indexedMs }, 'read indexes built and tables analysed after the replay');
      }
      if (this.role === 'building') await this.trySwitch();
      else void this.subscription?.stop();
    }

    /**
     * Writes what takes the build to `to`, with the checkpoint and what it was handed of the log
     * (`write`'s tally), in one transaction. With no `write` (a stretch of the log with none of the
     * build's types, as most of a busy log is for most builds) the live checkpoint moves alone,
     * with those of the other builds moving at the same moment (`checkpointMoves`).
     */
    private async commit(to: LogPosition, write: ((trx: Knex.Transaction) => Promise<LogTally | void>) | null) {
      const { schema, key } = this;
      const from = this.position!;
      const started = performance.now();
      const moved =
        write === null && !this.replaying && !this.tailPending
          ? await checkpointMoves.load({ key, from, to })
          : await this.inSchema(async (trx) => {
              if (this.replaying) await trx.raw(REPLAY_SETTINGS);
              if (this.tailPending) await trx.raw(DEFERRED_SETTING);
              const tally = (await write?.(trx)) ?? NOTHING;
              const updated = await trx.raw(
                `UPDATE projections.checkpoints SET tx = ?::text::xid8, pos = ?, updated_at = now(),
                   applied_events = applied_events + ?::bigint, applied_positions = applied_positions + ?::numeric
                 WHERE name = ? AND version = ? AND build = ? AND tx = ?::text::xid8 AND pos = ? AND state <> 'retired'`,
                [
                  to.transactionId.toString(),
                  to.globalPosition.toString(),
                  tally.events.toString(),
                  tally.positions.toString(),
                  key.name,
                  key.version,
                  key.build,
                  from.transactionId.toString(),
                  from.globalPosition.toString(),
                ],
              );
              // the transaction rolls back with what `write` wrote
              if (updated.rowCount !== 1) throw new CheckpointMoved(`checkpoint of ${buildLabel(key)} moved or retired under us`);
              return true;
            });
      if (!moved) throw new CheckpointMoved(`checkpoint of ${buildLabel(key)} moved or retired under us`);
      this.position = to;
      this.log.debug({ position: positionToken(to), ms: Math.round(performance.now() - started) }, 'batch applied');
      // after the commit: readers waiting on X-Min-Position learn the new checkpoint
      if (this.role === 'live') notifyCheckpoint(`${schema}:${positionToken(to)}`);
    }

    /** A build that has caught up with the live one takes its place. */
    private async trySwitch() {
      if (this.role !== 'building' || stopped) return;
      if (!(await indexesUsable(db, this.schema))) {
        if (!this.waitedForIndexes) this.log.info('waiting for transactions older than its indexes before it switches in');
        this.waitedForIndexes = true;
        return;
      }
      // Behind the live build it cannot switch yet (the switch checks again): no use counting the log
      const live = await liveBuild(db, this.key.name);
      if (live && compareLogPositions(this.position!, live.position) < 0) return;
      // Counted before the switch's transaction, which would hold back every reader of the log
      // meanwhile; the build does not move until this turn ends
      const problem = await this.unaccounted();
      if (problem !== null) {
        this.log.error({ problem }, 'build not switched in: its replay does not account for the log');
        await discardBuild(db, this.key, problem, this.position!);
        // its run loop finds it discarded and halts
        void this.subscription?.stop();
        return;
      }
      const outcome = await switchToBuild(db, this.key, (trx) => publishViews(trx, this.projection, this.schema));
      if (!outcome.switched) return;
      this.role = 'live';
      this.log.info({ position: this.position && positionToken(this.position), retired: outcome.retired && buildLabel(outcome.retired) }, 'build switched in: reads now come from it');
      options.onCheckpoint?.(`switched:${this.key.name}`);
      await db.raw('SELECT pg_notify(?, ?)', [CHECKPOINTS_CHANNEL, `switched:${this.key.name}`]);
      await notifyRunners(db, `switched:${this.key.name}`);
      // From now on this build follows the log as the live one does: small batches, durable commits
      this.replaying = false;
      void this.subscription?.stop();
      if (outcome.retired) await dropBuild(db, outcome.retired, this.log);
    }

    /**
     * Whether the build was handed every event of its types up to its checkpoint, once: what it
     * counted as it applied them against the log's own count (and sum of positions) up to there.
     * Null when it was, or cannot be checked (an event store that cannot count, a build from
     * before builds counted).
     */
    private async unaccounted(): Promise<string | null> {
      const mine = await readCheckpoint(db, this.key);
      if (!mine) return null; // retired meanwhile: the switch finds out
      if (!store.tally || !mine.applied) {
        this.log.warn('the event store cannot count its log, or the build predates counting: switching in without checking its replay');
        return null;
      }
      const types = this.projection.types;
      const log = await store.tally(types, mine.position);
      if (log.events === mine.applied.events && log.positions === mine.applied.positions) return null;
      const counted = log.events === mine.applied.events ? `${log.events} events, but not the same ones,` : `${mine.applied.events} of the ${log.events} events`;
      return (
        `its replay does not account for the log: it applied ${counted} of its types (${types.join(', ')}) up to ${positionToken(mine.position)}. ` +
        `Not switched in: the live build goes on serving; rebuild ${this.key.name} again for a new build`
      );
    }

    private async halt(event: RecordedEvent, error: unknown) {
      // A build retired under us fails on its dropped tables: that is the end of the build, not a poison event
      const row = await readCheckpoint(db, this.key);
      if (!row || row.state === 'retired') throw new CheckpointMoved(`${buildLabel(this.key)} was retired`);
      const message = error instanceof Error ? error.message : String(error);
      this.log.error({ err: error, position: positionToken(event.position), type: event.type, streamId: event.streamId }, 'projection halted on an event it cannot apply');
      await db.raw(
        `UPDATE projections.checkpoints SET error = ?, failed_tx = ?::text::xid8, failed_pos = ?, updated_at = now()
         WHERE name = ? AND version = ? AND build = ?`,
        [`${event.type} in ${event.streamId}: ${message}`, event.position.transactionId.toString(), event.position.globalPosition.toString(), this.key.name, this.key.version, this.key.build],
      );
      throw new Halted(message);
    }

    private pause(ms: number) {
      this.pausing = new AbortController();
      return abortableSleep(ms, this.pausing.signal);
    }

    restart() {
      void this.subscription?.stop();
    }

    async stop() {
      this.pausing?.abort();
      await this.subscription?.stop();
      await this.loop;
    }
  }

  let syncing: Promise<void> | null = null;
  let syncAgain = false;

  /** Starts a worker for every build of our projections that has none yet; resolves when each has tried its lock. */
  async function syncAll(): Promise<void> {
    if (syncing) {
      syncAgain = true;
      return syncing;
    }
    syncing = (async () => {
      do {
        syncAgain = false;
        await Promise.all(options.projections.map((projection) => syncProjection(projection)));
      } while (syncAgain && !stopped);
    })().finally(() => {
      syncing = null;
    });
    return syncing;
  }

  async function syncProjection(projection: Projection): Promise<void> {
    if (stopped) return;
    const { builds, retired, superseded } = await buildsToRun(db, projection);
    if (superseded) {
      logger.warn({ projection: projection.name, version: projection.version }, 'a newer version of this projection is live: this code version does nothing');
    }
    for (const old of retired) await dropBuild(db, old, logger);
    // Workers of builds that were retired (switched past) stop now rather than at their next event
    for (const worker of workers.values()) {
      if (worker.projection === projection && !builds.some((b) => lockKey(b) === lockKey(worker.key))) worker.restart();
    }
    const started: Promise<void>[] = [];
    for (const build of builds) {
      if (options.only === 'building' && build.state !== 'building') continue;
      if (workers.has(lockKey(build)) || stopped) continue;
      const worker = new Worker(projection, build, build.state);
      workers.set(lockKey(build), worker);
      started.push(new Promise<void>((resolve) => worker.run(resolve)));
    }
    await Promise.all(started);
  }

  let poller: NodeJS.Timeout | null = null;

  return {
    async start() {
      await migrateCheckpoints(db);
      sqlLog = await sqlLogIn(db, store);
      await lockSession();
      await syncAll();
      poller = setInterval(() => void syncAll().catch((error) => logger.warn({ err: error }, 'looking for projection builds failed')), standbyRetryMs);
      poller.unref();
    },
    async stop() {
      stopped = true;
      if (poller) clearInterval(poller);
      await syncing?.catch(() => {});
      await Promise.all([...workers.values()].map((worker) => worker.stop()));
      const session = lockClient;
      lockClient = null;
      await session?.then((client) => client.end()).catch(() => {});
    },
    workers() {
      return [...workers.values()].map((w) => ({ ...w.key, role: w.role, state: w.state, position: w.position }));
    },
    sync: syncAll,
  };
}

/**
 * The ranges this runner's builds stage the log in. Builds that stage together
 * go through the log in the same ranges (bounded by the first event of any of
 * their types SQL cannot read), so each range is looked up once for all of them.
 */
function stagedRangesOf(projections: readonly Projection[], size: number) {
  const types = [...new Set(projections.filter((p) => p.replay).flatMap((p) => p.types))].sort();
  const found = new Map<string, ReturnType<SqlLog['nextRange']>>();
  return {
    next(log: SqlLog, after: LogPosition): ReturnType<SqlLog['nextRange']> {
      const key = positionToken(after);
      let range = found.get(key);
      if (!range) {
        range = log.nextRange(after, { limit: size, types });
        found.set(key, range);
        range.catch(() => found.delete(key));
        // the builds are a few ranges apart at most
        for (const old of found.keys()) if (found.size > 16) found.delete(old);
      }
      return range;
    },
  };
}

/**
 * Points the `read` views at a build's tables. CREATE OR REPLACE keeps each
 * view's identity, so a reader mid-query is never left without one; a new
 * version whose columns differ replaces the view inside the same transaction.
 * Readers lock the views in their own order, so the switch waits for each
 * view only briefly: rather than deadlock with a reader (and have PostgreSQL
 * cancel one of them, maybe the reader), it gives up and is tried again.
 */
async function publishViews(trx: Knex.Transaction, projection: Projection, schema: string) {
  await trx.raw(`SET LOCAL lock_timeout TO '100ms'`);
  await trx.raw(`CREATE SCHEMA IF NOT EXISTS "${READ_SCHEMA}"`);
  // a query's bare table names are the build's: PostgreSQL binds them into the view as it is created
  const { rows } = await trx.raw<{ rows: { path: string }[] }>(`SELECT current_setting('search_path') AS path`);
  await trx.raw(`SELECT set_config('search_path', ?, true)`, [`"${schema}"`]);
  for (const [view, shown] of Object.entries(projection.exposes)) {
    const definition = typeof shown === 'string' ? `SELECT * FROM "${schema}"."${shown}"` : shown.select;
    try {
      await trx.transaction((savepoint) => savepoint.raw(`CREATE OR REPLACE VIEW "${READ_SCHEMA}"."${view}" AS ${definition}`));
    } catch (error) {
      if ((error as { code?: string }).code !== '42P16') throw error; // other columns: replace the view
      await trx.raw(`DROP VIEW IF EXISTS "${READ_SCHEMA}"."${view}"`);
      await trx.raw(`CREATE VIEW "${READ_SCHEMA}"."${view}" AS ${definition}`);
    }
  }
  await trx.raw(`SELECT set_config('search_path', ?, true)`, [rows[0]!.path]);
}

/** The names of the tables in `schema`. */
async function tablesIn(db: Knex, schema: string): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { name: string }[] }>('SELECT tablename AS name FROM pg_tables WHERE schemaname = ?', [schema]);
  return rows.map((r) => r.name);
}

/**
 * Whether readers starting now can use every index of `schema`. An index
 * built over rows a replay updated, while older transactions still ran (a
 * long settle of another build), is marked `indcheckxmin`: the planner leaves
 * it out of queries whose snapshot is older than the index, so that until
 * those transactions end, a build switched in would answer by scanning its
 * tables (each post's comments out of 270k rows, say).
 */
async function indexesUsable(db: Knex, schema: string): Promise<boolean> {
  const { rows } = await db.raw<{ rows: { usable: boolean }[] }>(
    `SELECT NOT EXISTS (
       SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = ? AND ${INDEX_NOT_YET_USABLE_SQL}
     ) AS usable`,
    [schema],
  );
  return rows[0]!.usable;
}

/** Drops a retired build's schema; a runner still writing to it holds it up for a moment at most. */
async function dropBuild(db: Knex, build: BuildKey, log: Logger) {
  const schema = buildSchema(build);
  try {
    await db.transaction(async (trx) => {
      await trx.raw(`SET LOCAL lock_timeout TO '10s'`);
      await trx.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    });
  } catch (error) {
    log.warn({ err: error, schema }, 'could not drop a retired build yet; the next look will try again');
  }
}

/** Errors of the connection or server (not of the event's content): retry, don't halt. */
function isTransient(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? '';
  return (
    code.startsWith('08') || // connection exceptions
    code.startsWith('57P') || // admin shutdown, crash shutdown, cannot connect now
    code === '40001' || // serialization failure
    code === '40P01' || // deadlock
    code === '53300' || // too many connections
    code === '55P03' || // lock not available (lock_timeout)
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code) ||
    /Connection terminated|Timeout acquiring a connection/i.test((error as Error | null)?.message ?? '')
  );
}
