import type { Logger } from '@forum/platform';
import { Pool, type Dispatcher } from 'undici';

/** How often a replica that is down is asked for its /healthz, and how long an answer may take. */
export const HEALTH_INTERVAL_MS = 1000;
const HEALTH_TIMEOUT_MS = 2000;

/** Errors that say a request never reached the replica: another replica may take it, whatever its method. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Errors that say the connection broke: the replica may have done the request, so only a safe method is sent again. */
const CONNECTION_LOST = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

export const neverReached = (error: unknown): boolean => NOT_CONNECTED.has((error as { code?: string })?.code ?? '');
export const connectionLost = (error: unknown): boolean => CONNECTION_LOST.has((error as { code?: string })?.code ?? '');

interface Replica {
  readonly origin: string;
  readonly pool: Pool;
  /** Answered its last health check and broke no connection since. */
  up: boolean;
}

/**
 * The replicas of one service (their origins, e.g. http://127.0.0.1:4101), as an undici dispatcher
 * that @fastify/reply-from sends requests through: round robin over the replicas that are up. A
 * replica goes down at once when a connection to it fails, and up again when its /healthz answers
 * (asked every HEALTH_INTERVAL_MS while it is down: the replicas that are up are not asked, so
 * their logs carry no line a second). With none up, every replica is tried: the answer says why.
 */
export class ReplicaSet {
  private readonly replicas: Replica[];
  private next = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly name: string,
    origins: readonly string[],
    private readonly logger: Logger,
  ) {
    if (origins.length === 0) throw new Error(`no replicas of ${name}`);
    // no body timeout: a change stream (GET /api/stream) stays open as long as its client reads
    this.replicas = origins.map((origin) => ({
      origin,
      pool: new Pool(origin, { connections: null, keepAliveTimeout: 60_000, headersTimeout: 60_000, bodyTimeout: 0 }),
      up: true,
    }));
    this.timer = setInterval(() => void this.checkHealth(), HEALTH_INTERVAL_MS);
    this.timer.unref();
  }

  /** The replicas, and whether each is up (the gateway's /readyz). */
  status(): { origin: string; up: boolean }[] {
    return this.replicas.map(({ origin, up }) => ({ origin, up }));
  }

  /** What @fastify/reply-from calls for each attempt of a request: the next replica that is up takes it. */
  request<T = null>(options: Dispatcher.RequestOptions<T>): Promise<Dispatcher.ResponseData<T>>;
  request<T = null>(options: Dispatcher.RequestOptions<T>, callback: (error: Error | null, data: Dispatcher.ResponseData<T>) => void): void;
  request<T = null>(
    options: Dispatcher.RequestOptions<T>,
    callback?: (error: Error | null, data: Dispatcher.ResponseData<T>) => void,
  ): Promise<Dispatcher.ResponseData<T>> | void {
    const replica = this.pick();
    // the replica's pool has its own origin
    const rest = { ...options };
    delete rest.origin;
    const answer = replica.pool.request(rest).then(
      (data) => {
        // reply-from destroys the body of an answer whose client has gone before it came, and the
        // body then emits an abort error that no one else listens for: it would end the process
        data.body.on('error', () => {});
        return data;
      },
      (error: unknown) => {
        if (neverReached(error) || connectionLost(error)) this.down(replica, error as Error);
        throw error;
      },
    );
    if (!callback) return answer;
    answer.then(
      (data) => callback(null, data),
      (error: Error) => callback(error, undefined as never),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((replica) => replica.pool.destroy()));
  }

  private pick(): Replica {
    const up = this.replicas.filter((replica) => replica.up);
    const from = up.length > 0 ? up : this.replicas;
    this.next = (this.next + 1) % from.length;
    return from[this.next]!;
  }

  private down(replica: Replica, error: Error) {
    if (!replica.up) return;
    replica.up = false;
    this.logger.warn({ service: this.name, replica: replica.origin, code: (error as { code?: string }).code }, 'replica down: its requests go to the others');
  }

  private async checkHealth() {
    await Promise.all(
      this.replicas
        .filter((replica) => !replica.up)
        .map(async (replica) => {
          const healthy = await fetch(`${replica.origin}/healthz`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) }).then(
            (answer) => answer.ok,
            () => false,
          );
          if (!healthy) return;
          this.logger.info({ service: this.name, replica: replica.origin }, 'replica up again');
          replica.up = true;
        }),
    );
  }
}

/** A service is ready while one of its replicas is up (a gateway's /readyz). */
export function replicasCheck(set: ReplicaSet) {
  const replicas = set.status();
  return { ok: replicas.some((replica) => replica.up), detail: Object.fromEntries(replicas.map(({ origin, up }) => [origin, up ? 'up' : 'down'])) };
}
