import { positionToken, type LogPosition } from '@forum/contracts';
import { CoalescingNotifier, type EventStore, type RecordedEvent, type Subscription } from '@forum/command-service/eventstore';
import type { Knex, Logger } from '@forum/platform';
import pg from 'pg';
import { ensureCheckpoint, migrateCheckpoints } from './checkpoints.ts';
import { CHECKPOINTS_CHANNEL, READ_SCHEMA, schemaOf, type Projection } from './projection.ts';

export interface RunnerOptions {
  db: Knex;
  /** For the session that holds the advisory locks (one live runner per projection version). */
  connectionString: string;
  store: EventStore;
  projections: readonly Projection[];
  logger: Logger;
  batchSize?: number;
  /** How often a standby runner tries to take over. */
  standbyRetryMs?: number;
}

export type WorkerState = 'starting' | 'standby' | 'running' | 'halted' | 'stopped';

export interface ProjectionRunner {
  /** Resolves once every projection has either taken its lock or gone to standby. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** What this process is doing with each projection. */
  workers(): { name: string; version: number; state: WorkerState; position: LogPosition | null }[];
}

/** Thrown when a batch finds its checkpoint moved by someone else: this runner lost ownership. */
class CheckpointMoved extends Error {}

const LOCK_CLASS = 4242;

export function createProjectionRunner(options: RunnerOptions): ProjectionRunner {
  const { db, store, logger } = options;
  const batchSize = options.batchSize ?? 500;
  const standbyRetryMs = options.standbyRetryMs ?? 2000;
  let lockClient: Promise<pg.Client> | null = null;
  /** The lock session's queries run one at a time (a pg client takes one query at once). */
  let lockQueue: Promise<unknown> = Promise.resolve();
  let stopped = false;

  /** One session holds every advisory lock of this runner; concurrent callers share it. */
  function lockSession(): Promise<pg.Client> {
    lockClient ??= (async () => {
      const client = new pg.Client({ connectionString: options.connectionString, application_name: 'forum-projection-locks' });
      client.on('error', (error) => {
        // Losing the session releases the locks: every worker must stop writing and start over
        logger.error({ err: error }, 'projection lock session lost');
        lockClient = null;
        for (const worker of workers) worker.restart();
      });
      await client.connect();
      return client;
    })().catch((error) => {
      lockClient = null;
      throw error;
    });
    return lockClient;
  }

  class Worker {
    state: WorkerState = 'starting';
    position: LogPosition | null = null;
    private subscription: Subscription | null = null;
    private loop: Promise<void> | null = null;
    private wake: (() => void) | null = null;
    private readonly schema: string;
    private readonly log: Logger;
    private readonly notifier = new CoalescingNotifier((payload) => db.raw('SELECT pg_notify(?, ?)', [CHECKPOINTS_CHANNEL, payload]));

    constructor(readonly projection: Projection) {
      this.schema = schemaOf(projection);
      this.log = logger.child({ projection: projection.name, version: projection.version });
    }

    /** Runs until stopped; resolves `ready` after the first lock attempt. */
    run(ready: () => void) {
      this.loop = (async () => {
        while (!stopped) {
          try {
            const owner = await this.tryLock();
            if (!owner) {
              if (this.state !== 'standby') this.log.info('another runner owns this projection: standing by');
              this.state = 'standby';
              ready();
              await this.pause(standbyRetryMs);
              continue;
            }
            await this.prepare();
            this.state = 'running';
            ready();
            await this.follow();
          } catch (error) {
            if (stopped) break;
            if (error instanceof PoisonEvent) {
              this.state = 'halted';
              ready();
              return; // halted until restarted; the lock stays with us so no other runner retries it blindly
            }
            this.log.warn({ err: error }, 'projection worker restarting');
            await this.pause(1000);
          }
        }
        this.state = 'stopped';
      })();
    }

    private async tryLock(): Promise<boolean> {
      const attempt = lockQueue.then(async () => {
        const client = await lockSession();
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [
          LOCK_CLASS,
          `${this.projection.name}:${this.projection.version}`,
        ]);
        return rows[0]?.locked === true;
      });
      lockQueue = attempt.catch(() => {});
      return attempt;
    }

    private async prepare() {
      const { projection, schema } = this;
      await db.transaction(async (trx) => {
        await trx.raw(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        await trx.raw(`SET LOCAL search_path TO "${schema}", public`);
        await projection.migrate(trx);
      });
      const checkpoint = await ensureCheckpoint(db, projection.name, projection.version);
      if (checkpoint.state === 'halted') {
        this.log.info({ failedPosition: checkpoint.failedPosition && positionToken(checkpoint.failedPosition) }, 'resuming a halted projection');
      }
      const live = await db.raw<{ rows: { version: number }[] }>(
        `SELECT version FROM projections.checkpoints WHERE name = ? AND state = 'live'`,
        [projection.name],
      );
      const liveVersions = live.rows.map((r) => r.version);
      // The first version of a projection serves at once; a later one switches in when caught up
      const nextState = liveVersions.includes(projection.version) || liveVersions.length === 0 ? 'live' : 'building';
      await db.transaction(async (trx) => {
        if (nextState === 'live') await publishViews(trx, projection);
        await trx.raw(
          `UPDATE projections.checkpoints SET state = ?, error = NULL, failed_tx = NULL, failed_pos = NULL, updated_at = now()
           WHERE name = ? AND version = ?`,
          [nextState, projection.name, projection.version],
        );
      });
      this.position = checkpoint.position;
    }

    private async follow() {
      const subscription = store.subscribe({
        after: this.position!,
        batchSize,
        onBatch: (events) => this.applyBatch(events),
      });
      this.subscription = subscription;
      try {
        await subscription.done;
      } finally {
        this.subscription = null;
      }
      if (!stopped) throw new Error('subscription ended');
    }

    private async applyBatch(events: readonly RecordedEvent[]) {
      try {
        await this.commit(events);
      } catch (error) {
        if (error instanceof CheckpointMoved || isTransient(error) || events.length === 1) {
          if (events.length === 1 && !(error instanceof CheckpointMoved) && !isTransient(error)) await this.halt(events[0]!, error);
          throw error;
        }
        // Find the event that fails: everything before it is applied and checkpointed
        for (const event of events) {
          try {
            await this.commit([event]);
          } catch (single) {
            if (!(single instanceof CheckpointMoved) && !isTransient(single)) await this.halt(event, single);
            throw single;
          }
        }
      }
    }

    private async commit(events: readonly RecordedEvent[]) {
      const { projection, schema } = this;
      const from = this.position!;
      const to = events.at(-1)!.position;
      const started = performance.now();
      await db.transaction(async (trx) => {
        await trx.raw(`SET LOCAL search_path TO "${schema}", public`);
        await projection.apply(trx, events);
        const moved = await trx.raw(
          `UPDATE projections.checkpoints SET tx = ?::text::xid8, pos = ?, updated_at = now()
           WHERE name = ? AND version = ? AND tx = ?::text::xid8 AND pos = ?`,
          [to.transactionId.toString(), to.globalPosition.toString(), projection.name, projection.version, from.transactionId.toString(), from.globalPosition.toString()],
        );
        if (moved.rowCount !== 1) throw new CheckpointMoved(`checkpoint of ${projection.name} v${projection.version} moved under us`);
      });
      this.position = to;
      this.log.debug({ events: events.length, ms: Math.round(performance.now() - started) }, 'batch applied');
      // after the commit: readers waiting on X-Min-Position learn the new checkpoint
      this.notifier.notify(`${projection.name}:${projection.version}:${positionToken(to)}`);
    }

    private async halt(event: RecordedEvent, error: unknown) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.error({ err: error, position: positionToken(event.position), type: event.type, streamId: event.streamId }, 'projection halted on an event it cannot apply');
      await db.raw(
        `UPDATE projections.checkpoints SET state = 'halted', error = ?, failed_tx = ?::text::xid8, failed_pos = ?, updated_at = now()
         WHERE name = ? AND version = ?`,
        [`${event.type} in ${event.streamId}: ${message}`, event.position.transactionId.toString(), event.position.globalPosition.toString(), this.projection.name, this.projection.version],
      );
      throw new PoisonEvent(message);
    }

    private pause(ms: number) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wake = done;
      });
    }

    restart() {
      void this.subscription?.stop();
    }

    async stop() {
      this.wake?.();
      await this.subscription?.stop();
      await this.loop;
    }
  }

  const workers = options.projections.map((projection) => new Worker(projection));

  return {
    async start() {
      await migrateCheckpoints(db);
      await Promise.all(workers.map((worker) => new Promise<void>((resolve) => worker.run(resolve))));
    },
    async stop() {
      stopped = true;
      await Promise.all(workers.map((worker) => worker.stop()));
      const session = lockClient;
      lockClient = null;
      await session?.then((client) => client.end()).catch(() => {});
    },
    workers() {
      return workers.map((w) => ({ name: w.projection.name, version: w.projection.version, state: w.state, position: w.position }));
    },
  };
}

class PoisonEvent extends Error {}

async function publishViews(trx: Knex.Transaction, projection: Projection) {
  const schema = schemaOf(projection);
  await trx.raw(`CREATE SCHEMA IF NOT EXISTS "${READ_SCHEMA}"`);
  for (const [view, table] of Object.entries(projection.exposes)) {
    await trx.raw(`DROP VIEW IF EXISTS "${READ_SCHEMA}"."${view}"`);
    await trx.raw(`CREATE VIEW "${READ_SCHEMA}"."${view}" AS SELECT * FROM "${schema}"."${table}"`);
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
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code) ||
    /Connection terminated|Timeout acquiring a connection/i.test((error as Error | null)?.message ?? '')
  );
}

