import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The forum's metrics in Prometheus's text format (docs/operations.md#metrics lists every family).
 * One registry per process, or per stack when tests start several in one process: a stack's
 * composition makes one with createMetrics and passes it to the parts it starts, each of which
 * counts into it where the thing counted happens (a thin hook, no logic of its own). Nothing
 * counts into prom-client's global registry: two forums in one test process would mix their
 * counts there, and a family made twice in it throws.
 *
 * Counters and histograms are counted as things happen; the gauges of state (pools, streams, the
 * projections' lag, readiness) are read from their sources at each scrape (`watch…`).
 */
export interface Metrics {
  readonly registry: Registry;
  /** Each answer of the HTTP server: its route's pattern, method and status; a client that left first is status 499. */
  readonly httpRequestDuration: Histogram<'route' | 'method' | 'status'>;
  /** Each command: its name and outcome (`accepted`, `replayed` for a used Idempotency-Key, else the refusal's error code). */
  readonly commands: Counter<'command' | 'outcome'>;
  /** Appends committed to the event log (one per command that changed something), by how they went (`group` commit or own `transaction`). */
  readonly appends: Counter<'mode'>;
  /** Events committed to the event log. */
  readonly appendedEvents: Counter;
  /** How many one-stream appends each group commit took to PostgreSQL in one statement. */
  readonly groupCommitSize: Histogram;
  /** Writes refused by the write limits (429), by kind of write. */
  readonly writeLimitRefusals: Counter<'kind'>;
  /** Reads looked up in the read side's memory of visitors' answers, by reader (`visitor`, or `member` for a shared body): `hit`, `not_modified` (a 304 on the ETag) or `miss`. */
  readonly visitorCache: Counter<'reader' | 'result'>;
  /** A database pool, read at each scrape under `name`. */
  watchPool(name: string, use: () => PoolUse): void;
  /** The change streams open in this process, read at each scrape. */
  watchStreams(open: () => number): void;
  /** The projections' builds and their lag, read at each scrape. */
  watchBuilds(read: () => Promise<readonly BuildLag[]>): void;
  /** The readiness checks (/readyz's), run at each scrape. */
  watchReadiness(run: () => Promise<Readonly<Record<string, { readonly ok: boolean }>>>): void;
}

/** A pool's connections now. */
export interface PoolUse {
  readonly used: number;
  readonly idle: number;
  /** Requests waiting for a connection. */
  readonly waiting: number;
  readonly max: number;
}

/** A projection build's place in the log. */
export interface BuildLag {
  readonly projection: string;
  readonly version: number;
  /** `live` (read by the read side) or `building` (a rebuild beside it). */
  readonly role: string;
  /** Events of the log it has not applied yet. */
  readonly lagEvents: number;
  /** How long the oldest event it has not applied has been in the log, seconds; 0 when caught up. */
  readonly lagSeconds: number;
  /** How far through the log it is, 0 to 1 (a rebuild's progress). */
  readonly progress: number;
}

/** Seconds: from a visitor's answer from memory (well under a millisecond) to a search under load. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Appends per group commit: the batch is at most 200 (eventstore's append.ts). */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 200];

/**
 * A registry for one process (`service` labels every series, as `forum`, `gateway`,
 * `command-service`), with Node's and the process's own metrics under their standard names
 * (process_cpu_seconds_total, nodejs_eventloop_lag_seconds…).
 */
export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const pools = new Map<string, () => PoolUse>();
  const streams: (() => number)[] = [];
  const builds = shared<readonly BuildLag[]>();
  const readiness = shared<Readonly<Record<string, { readonly ok: boolean }>>>();

  new Gauge({
    name: 'forum_db_pool_connections',
    help: 'Connections of a database pool, by state: used (lent to a statement) or idle.',
    labelNames: ['pool', 'state'],
    registers,
    collect() {
      this.reset();
      for (const [pool, read] of pools) {
        const use = read();
        this.set({ pool, state: 'used' }, use.used);
        this.set({ pool, state: 'idle' }, use.idle);
      }
    },
  });
  new Gauge({
    name: 'forum_db_pool_waiting_requests',
    help: 'Requests waiting for a connection of a database pool.',
    labelNames: ['pool'],
    registers,
    collect() {
      this.reset();
      for (const [pool, read] of pools) this.set({ pool }, read().waiting);
    },
  });
  new Gauge({
    name: 'forum_db_pool_max_connections',
    help: 'The most connections a database pool opens.',
    labelNames: ['pool'],
    registers,
    collect() {
      this.reset();
      for (const [pool, read] of pools) this.set({ pool }, read().max);
    },
  });
  new Gauge({
    name: 'forum_live_streams_open',
    help: 'Change streams (GET /api/stream) open in this process.',
    registers,
    collect() {
      this.set(streams.reduce((sum, open) => sum + open(), 0));
    },
  });
  const buildGauge = (name: string, help: string, value: (build: BuildLag) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['projection', 'version', 'role'],
      registers,
      async collect() {
        this.reset();
        for (const build of await builds.read()) this.set({ projection: build.projection, version: String(build.version), role: build.role }, value(build));
      },
    });
  buildGauge('forum_projection_lag_events', 'Events of the log a projection build has not applied yet.', (build) => build.lagEvents);
  buildGauge(
    'forum_projection_lag_seconds',
    'How long the oldest event a projection build has not applied has been in the log; 0 when caught up.',
    (build) => build.lagSeconds,
  );
  buildGauge(
    'forum_projection_build_progress_ratio',
    "How far through the log a projection build is, 0 to 1: a rebuild's progress.",
    (build) => build.progress,
  );
  new Gauge({
    name: 'forum_readiness_check_ok',
    help: "Each readiness check (/readyz's), run at the scrape: 1 passes, 0 fails.",
    labelNames: ['check'],
    registers,
    async collect() {
      this.reset();
      for (const [check, result] of Object.entries(await readiness.read())) this.set({ check }, result.ok ? 1 : 0);
    },
  });
  new Gauge({
    name: 'forum_ready',
    help: 'Whether this process is ready (every readiness check passes): 1 or 0.',
    registers,
    async collect() {
      if (!readiness.watched()) return;
      const results = Object.values(await readiness.read());
      this.set(results.length > 0 && results.every((result) => result.ok) ? 1 : 0);
    },
  });

  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'forum_http_request_duration_seconds',
      help: "Time to answer an HTTP request, by the pattern of the route that answered ('none' when none matched), method and status.",
      labelNames: ['route', 'method', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    commands: new Counter({
      name: 'forum_commands_total',
      help: "Commands decided, by command and outcome: accepted, replayed (an Idempotency-Key's first answer), or the refusal's error code.",
      labelNames: ['command', 'outcome'],
      registers,
    }),
    appends: new Counter({
      name: 'forum_eventstore_appends_total',
      help: 'Appends committed to the event log, by mode: group (a one-stream append committed with others) or transaction (several streams, or an idempotent one).',
      labelNames: ['mode'],
      registers,
    }),
    appendedEvents: new Counter({ name: 'forum_eventstore_appended_events_total', help: 'Events committed to the event log.', registers }),
    groupCommitSize: new Histogram({
      name: 'forum_eventstore_group_commit_size',
      help: 'One-stream appends taken to PostgreSQL together by one group commit.',
      buckets: BATCH_BUCKETS,
      registers,
    }),
    writeLimitRefusals: new Counter({
      name: 'forum_write_limit_refusals_total',
      help: 'Writes the write limits refused (429 RATE_LIMITED), by kind of write.',
      labelNames: ['kind'],
      registers,
    }),
    visitorCache: new Counter({
      name: 'forum_visitor_cache_lookups_total',
      help: "Reads looked up in the read side's memory of visitors' answers, by reader (visitor, or member for a shared body) and result: hit, not_modified (304) or miss.",
      labelNames: ['reader', 'result'],
      registers,
    }),
    watchPool: (name, use) => void pools.set(name, use),
    watchStreams: (open) => void streams.push(open),
    watchBuilds: (read) => builds.watch(read),
    watchReadiness: (run) => readiness.watch(run),
  };
}

/**
 * A source that several gauges show, read once per scrape: the registry starts every gauge's
 * collect at once, so the gauges after the first share its read while it is under way. A failed
 * read shows nothing rather than failing the whole scrape.
 */
function shared<T extends object>() {
  let source: (() => Promise<T>) | null = null;
  let reading: Promise<T | null> | null = null;
  return {
    watch(read: () => Promise<T>) {
      source = read;
    },
    watched: () => source !== null,
    async read(): Promise<T | readonly never[]> {
      if (!source) return [];
      reading ??= source()
        .catch(() => null)
        .finally(() => {
          reading = null;
        });
      return (await reading) ?? [];
    },
  };
}
