import pg from 'pg';
import { CONNECT_TIMEOUT_MS } from './db.ts';
import type { Logger } from './logger.ts';

/**
 * SQL that is true when the session running it holds the advisory lock `pg_try_advisory_lock(class,
 * hashtext(key))` of the current database; `lockClass` and `key` are SQL expressions (placeholders
 * or literals). A statement that must run only under the lock puts it in its WHERE: a session that
 * lost its connection and opened a new one holds no lock, whatever its owner believes.
 */
export const advisoryLockHeldSql = (lockClass: string, key: string) =>
  `EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = pg_backend_pid() AND ${advisoryLockIs(lockClass, key)})`;

/** SQL over `pg_locks`: the row is the advisory lock (class, hashtext(key)) of the current database. */
export const advisoryLockIs = (lockClass: string, key: string) =>
  `database = (SELECT oid FROM pg_database WHERE datname = current_database())
   AND classid = (${lockClass})::integer::oid AND objid = hashtext(${key})::oid AND objsubid = 2`;

export interface AdvisoryLockSessionOptions {
  readonly connectionString: string;
  /** How the session shows in pg_stat_activity. */
  readonly applicationName: string;
  /** The first half of every lock's key (`pg_try_advisory_lock(class, hashtext(key))`): one class per kind of owner. */
  readonly lockClass: number;
  readonly logger: Logger;
  /** What the log calls the session when it is lost (e.g. "projection lock session"). */
  readonly label: string;
  /** A stopped owner opens no session. */
  stopped(): boolean;
  /** The session is gone, and every lock it held with it: its owner must stop what the locks guarded, at once. */
  lost(error: Error): void;
}

/**
 * One dedicated PostgreSQL session that holds an owner's advisory locks (the projection runner's,
 * one per build; the feed relay's, one per feed). Session locks live exactly as long as the
 * connection: a crash, a cut connection or a restarted server frees them, and `lost` says so as
 * soon as the client hears of it. The next use connects again, holding nothing.
 */
export class AdvisoryLockSession {
  private client: Promise<pg.Client> | null = null;
  /** The session's queries run one at a time (a pg client takes one query at once). */
  private queue: Promise<unknown> = Promise.resolve();
  /** How each connection reports its loss (once). */
  private readonly losses = new WeakMap<pg.Client, (error: Error) => void>();

  constructor(private readonly options: AdvisoryLockSessionOptions) {}

  open(): Promise<pg.Client> {
    const { options } = this;
    if (options.stopped()) return Promise.reject(new Error(`the ${options.label}'s owner is stopped`));
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: options.connectionString,
      application_name: options.applicationName,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    let connected = false;
    const opening = client.connect().then(
      () => {
        connected = true;
        return client;
      },
      (error: unknown) => {
        if (this.client === opening) this.client = null;
        throw error;
      },
    );
    // an error and then the end of the connection may both report one loss: the first is the one
    // (a connection that never opened held nothing: its failure is the caller's)
    const lost = (error: Error) => {
      if (!connected || this.client !== opening) return;
      this.client = null;
      options.logger.error({ err: error }, `${options.label} lost`);
      options.lost(error);
    };
    this.losses.set(client, lost);
    client.on('error', lost);
    client.on('end', () => lost(new Error('the connection ended')));
    this.client = opening;
    return opening;
  }

  /** Whether a session is open or opening. */
  get isOpen(): boolean {
    return this.client !== null;
  }

  /** Takes the lock `key` if no other session holds it (this one may take it again: it counts re-entries). */
  tryLock(key: string): Promise<boolean> {
    return this.run(async (client) => {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [this.options.lockClass, key]);
      return rows[0]?.locked === true;
    });
  }

  async unlock(key: string): Promise<void> {
    await this.run((client) => client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [this.options.lockClass, key])).catch(() => {});
  }

  /** A statement on this session, after those queued before it (one that must hold a lock checks it with `advisoryLockHeldSql`). */
  query<R extends pg.QueryResultRow>(text: string, values?: readonly unknown[]): Promise<pg.QueryResult<R>> {
    return this.run((client) => client.query<R>(text, values as unknown[] | undefined));
  }

  async close(): Promise<void> {
    const session = this.client;
    this.client = null;
    await session?.then((client) => client.end()).catch(() => {});
  }

  private run<T>(query: (client: pg.Client) => Promise<T>): Promise<T> {
    const attempt = this.queue.then(async () => {
      const client = await this.open();
      try {
        return await query(client);
      } catch (error) {
        // a FATAL error (pg_terminate_backend, a server shutting down) ends the session: its owner
        // hears of the loss before this query's failure, not when the connection's end arrives
        if ((error as { severity?: string }).severity === 'FATAL' || (error as { severity?: string }).severity === 'PANIC')
          this.losses.get(client)?.(error as Error);
        throw error;
      }
    });
    this.queue = attempt.catch(() => {});
    return attempt;
  }
}
