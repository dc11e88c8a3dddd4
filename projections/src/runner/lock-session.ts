import type { Logger } from '@forum/platform';
import pg from 'pg';
import type { BuildKey } from './checkpoints.ts';

const LOCK_CLASS = 4242;

export const lockKey = (key: BuildKey) => `${key.name}:${key.version}:${key.build}`;

export interface LockSessionEvents {
  /** A stopped runner opens no session. */
  stopped(): boolean;
  /** The session is gone, and every lock it held with it. */
  lost(): void;
}

/** Connects the session that will hold the locks; `failed` hears of its loss. */
async function connectForLocks(connectionString: string, failed: (error: Error) => void): Promise<pg.Client> {
  const client = new pg.Client({ connectionString, application_name: 'forum-projection-locks' });
  client.on('error', failed);
  await client.connect();
  return client;
}

/** One session holds every advisory lock of this runner (one runner per build). */
export class LockSession {
  private client: Promise<pg.Client> | null = null;
  /** The lock session's queries run one at a time (a pg client takes one query at once). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly connectionString: string,
    private readonly logger: Logger,
    private readonly events: LockSessionEvents,
  ) {}

  open(): Promise<pg.Client> {
    if (this.events.stopped()) return Promise.reject(new Error('the projection runner is stopped'));
    this.client ??= connectForLocks(this.connectionString, (error) => {
      // Losing the session releases the locks: every worker must stop writing and start over
      this.logger.error({ err: error }, 'projection lock session lost');
      this.client = null;
      this.events.lost();
    }).catch((error) => {
      this.client = null;
      throw error;
    });
    return this.client;
  }

  /** Whether a session is open or opening. */
  get isOpen(): boolean {
    return this.client !== null;
  }

  /** Takes the build's advisory lock if no other session holds it. */
  tryLock(key: BuildKey): Promise<boolean> {
    return this.run(async (client) => {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [LOCK_CLASS, lockKey(key)]);
      return rows[0]?.locked === true;
    });
  }

  async unlock(key: BuildKey): Promise<void> {
    await this.run((client) => client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, lockKey(key)])).catch(() => {});
  }

  async close(): Promise<void> {
    const session = this.client;
    this.client = null;
    await session?.then((client) => client.end()).catch(() => {});
  }

  private run<T>(query: (client: pg.Client) => Promise<T>): Promise<T> {
    const attempt = this.queue.then(async () => query(await this.open()));
    this.queue = attempt.catch(() => {});
    return attempt;
  }
}
