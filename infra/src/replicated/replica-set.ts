import type { Logger } from '@forum/platform';
import { Pool, type Dispatcher } from 'undici';

/** How often every replica is asked for its /readyz. */
export const HEALTH_INTERVAL_MS = 1000;
/**
 * How long a replica's /readyz may take before the replica counts as not answering. Longer than the
 * services' own bound on their readiness checks (2 s, healthPlugin's), so that a replica that
 * answers "not ready" (its database is down or stalled) is told from one that does not answer at all
 * (a process stopped, an event loop that hangs): only the second has its requests ended.
 */
export const HEALTH_DEADLINE_MS = 3000;
/**
 * How long a replica may take to send an answer's headers (the body has no limit: the change stream,
 * GET /api/stream, stays open as long as its client reads). Above what the services take before they
 * answer on their own: a command gives up after its database's timeouts (a connection 5 s, a
 * statement 10 s; 10.0–12.1 s measured with PostgreSQL stalled, docs/reliability.md), a read after
 * X-Min-Position's wait (MIN_POSITION_WAIT_MS, 3 s by default; the tests' 15 s fits too) and its
 * statement's timeout (3 s, and 1 s more). A replica that goes past it is not doing its work: it is taken out, a read is sent to
 * another replica, a write is answered 504 (it may have been done). A hung process is found sooner,
 * by its /readyz (HEALTH_INTERVAL_MS + HEALTH_DEADLINE_MS); this catches a route that hangs alone.
 */
export const UPSTREAM_HEADERS_TIMEOUT_MS = 20_000;

/** Errors that say a request never reached the replica: another replica may take it, whatever its method. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Errors that say the connection broke: the replica may have done the request, so only a safe method is sent again. */
const CONNECTION_LOST = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);
/** The code of the error that ends a request whose replica was found not answering (ReplicaSilentError). */
const REPLICA_SILENT = 'FORUM_REPLICA_SILENT';
/**
 * Errors that say the replica took the request and did not answer in time (undici's headers timeout,
 * or its /readyz not answering either): a read goes to another replica; a write may have been done.
 */
const NO_ANSWER = new Set(['UND_ERR_HEADERS_TIMEOUT', REPLICA_SILENT]);

const codeOf = (error: unknown): string => (error as { code?: string })?.code ?? '';
export const neverReached = (error: unknown): boolean => NOT_CONNECTED.has(codeOf(error));
export const connectionLost = (error: unknown): boolean => CONNECTION_LOST.has(codeOf(error));
export const noAnswer = (error: unknown): boolean => NO_ANSWER.has(codeOf(error));

/** Ends a request whose answer has not come, or not all of it, from a replica that stopped answering its /readyz. */
class ReplicaSilentError extends Error {
  readonly code = REPLICA_SILENT;
  constructor(origin: string) {
    super(`${origin} stopped answering`);
  }
}

export interface ReplicaSetOptions {
  /** UPSTREAM_HEADERS_TIMEOUT_MS unless said (a test's shorter one). */
  readonly upstreamHeadersTimeoutMs?: number;
}

interface Replica {
  readonly origin: string;
  readonly pool: Pool;
  /** Answered its last /readyz with 2xx, and failed no request since. */
  up: boolean;
  /** When it was last taken out (performance.now()): only a /readyz asked after that puts it back. */
  outAt: number;
  /** A /readyz of ours is under way (a replica that hangs is not asked again until it has timed out). */
  probing: boolean;
  /** Requests sent to it whose answer is not over (its headers not come, or its body still coming): ended when it stops answering. */
  readonly open: Set<AbortController>;
  /** Requests sent to it so far. */
  requests: number;
}

/**
 * The replicas of one service (their origins, e.g. http://127.0.0.1:4101), as an undici dispatcher
 * that @fastify/reply-from sends requests through: round robin over the replicas that are up.
 *
 * Every replica is asked for its /readyz every HEALTH_INTERVAL_MS (one question at a time each). A
 * replica is taken out when its /readyz answers other than 2xx, or not within HEALTH_DEADLINE_MS,
 * or a request to it finds it not there, its connection broken, or no answer's headers within
 * UPSTREAM_HEADERS_TIMEOUT_MS; it is put back when a /readyz asked after that answers 2xx. When its /readyz does not
 * answer at all, the requests still waiting on it are ended at once (reads go to another replica,
 * writes answer 504) rather than at their own deadline, and the answers still coming from it are
 * cut (a change stream's client connects again, to a replica that answers). With none up, every
 * replica is tried: when their database is down, the services answer 503 themselves, which says
 * more than a gateway error.
 */
export class ReplicaSet {
  private readonly replicas: Replica[];
  private next = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly headersTimeout: number;
  private closed = false;

  constructor(
    readonly name: string,
    origins: readonly string[],
    private readonly logger: Logger,
    options: ReplicaSetOptions = {},
  ) {
    if (origins.length === 0) throw new Error(`no replicas of ${name}`);
    this.headersTimeout = options.upstreamHeadersTimeoutMs ?? UPSTREAM_HEADERS_TIMEOUT_MS;
    this.replicas = origins.map((origin) => ({
      origin,
      // no body timeout: a change stream (GET /api/stream) stays open as long as its client reads
      pool: new Pool(origin, { connections: null, keepAliveTimeout: 60_000, headersTimeout: this.headersTimeout, bodyTimeout: 0 }),
      up: true,
      outAt: -Infinity,
      probing: false,
      open: new Set(),
      requests: 0,
    }));
    this.timer = setInterval(() => this.checkHealth(), HEALTH_INTERVAL_MS);
    this.timer.unref();
    this.checkHealth();
  }

  /** The replicas, whether each is up (the gateway's /readyz), and how many requests each was sent. */
  status(): { origin: string; up: boolean; requests: number }[] {
    return this.replicas.map(({ origin, up, requests }) => ({ origin, up, requests }));
  }

  /** What @fastify/reply-from calls for each attempt of a request: the next replica that is up takes it. */
  request<T = null>(options: Dispatcher.RequestOptions<T>): Promise<Dispatcher.ResponseData<T>>;
  request<T = null>(options: Dispatcher.RequestOptions<T>, callback: (error: Error | null, data: Dispatcher.ResponseData<T>) => void): void;
  request<T = null>(
    options: Dispatcher.RequestOptions<T>,
    callback?: (error: Error | null, data: Dispatcher.ResponseData<T>) => void,
  ): Promise<Dispatcher.ResponseData<T>> | void {
    const replica = this.pick();
    replica.requests += 1;
    // reply-from gives no signal of its own: this one ends the request, or its answer's body, if the replica stops answering
    const open = new AbortController();
    replica.open.add(open);
    // the replica's pool has its own origin; reply-from passes no timeouts of its own (its undici options are this set)
    const rest = { ...options, headersTimeout: this.headersTimeout, signal: open.signal };
    delete rest.origin;
    delete rest.bodyTimeout;
    const answer = replica.pool.request(rest).then(
      (data) => {
        data.body.once('close', () => replica.open.delete(open));
        // reply-from destroys the body of an answer whose client has gone before it came, and the
        // body then emits an abort error that no one else listens for: it would end the process
        data.body.on('error', () => {});
        return data;
      },
      (error: unknown) => {
        replica.open.delete(open);
        if (neverReached(error) || connectionLost(error)) this.takeOut(replica, `${codeOf(error)} (${options.method})`);
        else if (codeOf(error) === 'UND_ERR_HEADERS_TIMEOUT') this.takeOut(replica, `no answer’s headers within ${this.headersTimeout} ms (${options.method})`);
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
    this.closed = true;
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((replica) => replica.pool.destroy()));
  }

  private pick(): Replica {
    const up = this.replicas.filter((replica) => replica.up);
    const from = up.length > 0 ? up : this.replicas;
    this.next = (this.next + 1) % from.length;
    return from[this.next]!;
  }

  private takeOut(replica: Replica, why: string) {
    if (!replica.up) return;
    replica.up = false;
    replica.outAt = performance.now();
    this.logger.warn({ replicaSet: this.name, replica: replica.origin, why }, 'replica out: its requests go to the others');
  }

  private putBack(replica: Replica) {
    if (replica.up) return;
    replica.up = true;
    this.logger.info({ replicaSet: this.name, replica: replica.origin }, 'replica back: it takes requests again');
  }

  private checkHealth() {
    for (const replica of this.replicas) if (!replica.probing) void this.probe(replica);
  }

  /** Asks `replica` for its /readyz, and takes it out or puts it back by the answer. */
  private async probe(replica: Replica) {
    replica.probing = true;
    const askedAt = performance.now();
    try {
      const answer = await this.readiness(replica);
      // a probe that close() cut short says nothing of the replica
      if (this.closed) return;
      // a "ready" asked before the replica failed a request says nothing of it since
      if (answer === 'ready') return askedAt > replica.outAt ? this.putBack(replica) : undefined;
      this.takeOut(replica, answer.why);
      if (answer.silent) for (const open of replica.open) open.abort(new ReplicaSilentError(replica.origin));
    } finally {
      replica.probing = false;
    }
  }

  private async readiness(replica: Replica): Promise<'ready' | { why: string; silent: boolean }> {
    const deadline = AbortSignal.timeout(HEALTH_DEADLINE_MS);
    try {
      const { statusCode, body } = await replica.pool.request({ path: '/readyz', method: 'GET', signal: deadline, headersTimeout: HEALTH_DEADLINE_MS });
      await body.dump();
      return statusCode >= 200 && statusCode < 300 ? 'ready' : { why: `/readyz answered ${statusCode}`, silent: false };
    } catch (error) {
      if (deadline.aborted || codeOf(error) === 'UND_ERR_HEADERS_TIMEOUT') return { why: `no answer to /readyz within ${HEALTH_DEADLINE_MS} ms`, silent: true };
      return { why: `/readyz: ${codeOf(error) || String(error)}`, silent: false };
    }
  }
}

/** A service is ready while one of its replicas is up (a gateway's /readyz). */
export function replicasCheck(set: ReplicaSet) {
  const replicas = set.status();
  return { ok: replicas.some((replica) => replica.up), detail: Object.fromEntries(replicas.map(({ origin, up }) => [origin, up ? 'up' : 'down'])) };
}
