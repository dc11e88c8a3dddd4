import { compareLogPositions, parsePositionToken, type LogPosition } from '@forum/contracts';
import { listenForNotifications, type Logger, type NotificationListener } from '@forum/platform';
import { buildSchema, CHECKPOINTS_CHANNEL } from '@forum/projections/read-model';
import pg from 'pg';
import { createHash } from 'node:crypto';

export interface CheckpointWatcherOptions {
  /** How often the checkpoints are read again when nothing is heard, in milliseconds (1000). */
  readonly refreshMs?: number;
  /**
   * A hot standby of the database the runner writes to, whose read models this process reads
   * (READ_DATABASE_URL): the checkpoints are read there, and a notice from the primary only says
   * what to look for (see CheckpointWatcher).
   */
  readonly standbyUrl?: string;
}

/** The first and the longest pause between two reads of a standby's checkpoints while they are awaited. */
const CHASE_FIRST_MS = 5;
const CHASE_MAX_MS = 100;
/** How long a standby's checkpoints are read at that pace after a rebuild switched in on the primary. */
const CHASE_AFTER_SWITCH_MS = 3000;

/**
 * Knows how far the live projections have got. The runner NOTIFYs after each
 * batch (keyed by the build's schema) and when a rebuild switches in; a new
 * LISTEN session (the first, or one after a lost connection) reads them all
 * again, and a periodic refresh covers builds that go live or halt.
 * A position is reached when every live, running projection has passed it.
 *
 * With a standby (`standbyUrl`), what counts is what the standby has replayed: NOTIFY does not
 * reach a standby, and the primary's notice comes before the standby has the batch. The notices
 * are still heard on the primary, but as hints: a position the standby should soon show. While a
 * hint or a waiting reader's position is not yet in the standby's checkpoints, they are read there
 * again every few milliseconds (5, doubling to 100); otherwise once a refresh. A checkpoint row is
 * written in the transaction that changed its read model, and a standby replays transactions
 * whole and in commit order: once its row shows a position, its read models hold it.
 */
export class CheckpointWatcher {
  private live = new Map<string, LogPosition>();
  /**
   * What each live build's tables hold, as a mark that changes exactly when they may have: its
   * count of applied events (of its own types), heard with its position; the position itself for
   * a build that does not count them (every move is then a change).
   */
  private marks = new Map<string, string>();
  /** The projection each live build (by its schema) belongs to. */
  private projectionOf = new Map<string, string>();
  /** What the live builds have applied, as one short string; null until known (see `version`). */
  private fingerprint: string | null = null;
  private waiters = new Set<() => void>();
  private listeners = new Set<(change: CheckpointChange) => void>();
  private listener: NotificationListener | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly refreshMs: number;
  /** Where the checkpoints are read: the standby when there is one, else where the runner writes. */
  private readonly checkpointsUrl: string;
  private readonly standby: boolean;
  /** With a standby: positions the primary announced per build that the standby does not show yet. */
  private ahead = new Map<string, LogPosition>();
  /** With a standby: the positions readers wait for. */
  private wanted = new Set<{ readonly position: LogPosition }>();
  private chaseUntil = 0;
  private chasePauseMs = CHASE_FIRST_MS;
  private chasing = false;

  constructor(
    private readonly connectionString: string,
    private readonly logger: Logger,
    options: CheckpointWatcherOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? 1000;
    this.standby = options.standbyUrl !== undefined;
    this.checkpointsUrl = options.standbyUrl ?? connectionString;
  }

  async start(): Promise<void> {
    this.listener = listenForNotifications({
      connectionString: this.connectionString,
      channels: [CHECKPOINTS_CHANNEL],
      applicationName: 'forum-query-checkpoints',
      logger: this.logger,
      onNotification: (_channel, payload) => this.notified(payload),
      // checkpoints moved while no session listened are read from the table; the first session's
      // are read once below, with or without a session
      onListening: () => {
        if (this.timer) void this.refresh();
      },
    });
    // a failed first session is logged by the listener, which keeps trying; the refresh below and the timer cover meanwhile
    await this.listener.started.catch(() => {});
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  /**
   * A checkpoint notification (`<schema>:<position>[:<applied events>]`, see the runner's
   * checkpointNotice): by NOTIFY, or straight from a runner in this process (which NOTIFYs too,
   * later). A build's position only moves forward: the later copy of a notification changes
   * nothing. Its mark comes with its position, from the same notice or the same row.
   */
  notified(payload: string) {
    if (payload.startsWith('switched:')) {
      // a rebuild switched in: its build is the live one now (on a standby, once it has replayed the switch)
      if (this.standby) this.chase(Date.now() + CHASE_AFTER_SWITCH_MS);
      else void this.refresh();
      return;
    }
    const match = /^([^:]+):(\d+)\.(\d+)(?::(\d+))?$/.exec(payload);
    if (!match) return;
    const key = match[1]!;
    const known = this.live.get(key);
    if (!known) return; // a build that is not live yet; refresh() picks up new live builds
    const position = { transactionId: BigInt(match[2]!), globalPosition: BigInt(match[3]!) };
    if (compareLogPositions(position, known) <= 0) return;
    if (this.standby) {
      const hinted = this.ahead.get(key);
      if (!hinted || compareLogPositions(position, hinted) > 0) this.ahead.set(key, position);
      this.chase();
      return;
    }
    this.live.set(key, position);
    this.marks.set(key, markOf(position, match[4]));
    this.changed();
  }

  private refreshing: Promise<void> | null = null;

  /** Reads the live checkpoints; calls that come while one is under way share it (one client, one query at a time). */
  refresh(): Promise<void> {
    this.refreshing ??= this.readLive().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async readLive(): Promise<void> {
    try {
      // a halted projection is left out: it would hold every reader back until it is fixed
      const { rows } = await (
        await this.queryClient()
      ).query<{ name: string; version: number; build: number; tx: string; pos: string; applied: string | null }>(
        `SELECT name, version, build, tx::text AS tx, pos::text AS pos, applied_events::text AS applied FROM projections.checkpoints WHERE state = 'live' AND error IS NULL`,
      );
      const next = new Map<string, LogPosition>();
      const marks = new Map<string, string>();
      const names = new Map<string, string>();
      for (const row of rows) {
        const fromDb = { transactionId: BigInt(row.tx), globalPosition: BigInt(row.pos) };
        const key = buildSchema(row);
        const known = this.live.get(key);
        const keepKnown = known !== undefined && compareLogPositions(known, fromDb) > 0;
        next.set(key, keepKnown ? known : fromDb);
        marks.set(key, keepKnown ? this.marks.get(key)! : markOf(fromDb, row.applied ?? undefined));
        names.set(key, row.name);
      }
      // other live builds than before (a rebuild switched in, a build halted or went live): not a move
      const switched = this.fingerprint !== null && (next.size !== this.live.size || [...next.keys()].some((key) => !this.live.has(key)));
      this.live = next;
      this.marks = marks;
      this.projectionOf = names;
      this.changed(switched ? 'switched' : 'moved');
    } catch (error) {
      this.logger.debug({ err: error }, 'checkpoints not readable yet');
    }
  }

  private refreshClient: pg.Client | null = null;
  private async queryClient(): Promise<pg.Client> {
    if (this.refreshClient) return this.refreshClient;
    const client = new pg.Client({ connectionString: this.checkpointsUrl, application_name: 'forum-query-checkpoints' });
    client.on('error', () => {
      if (this.refreshClient === client) this.refreshClient = null;
    });
    await client.connect();
    this.refreshClient = client;
    return client;
  }

  reached(position: LogPosition): boolean {
    if (this.live.size === 0) return false;
    for (const checkpoint of this.live.values()) if (compareLogPositions(checkpoint, position) < 0) return false;
    return true;
  }

  /** True when every live projection has applied `position` within `timeoutMs`. */
  async waitFor(position: LogPosition, timeoutMs: number): Promise<boolean> {
    if (this.reached(position)) return true;
    if (!this.standby) return this.waitForNotice(position, timeoutMs);
    const wanted = { position };
    this.wanted.add(wanted);
    this.chase();
    try {
      return await this.waitForNotice(position, timeoutMs);
    } finally {
      this.wanted.delete(wanted);
    }
  }

  private async waitForNotice(position: LogPosition, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.reached(position)) {
      const left = deadline - Date.now();
      if (left <= 0 || this.closed) return false;
      const notified = await new Promise<boolean>((resolve) => {
        const done = (byNotify: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve(byNotify);
        };
        const wake = () => done(true);
        const timer = setTimeout(() => done(false), Math.min(left, 250));
        this.waiters.add(wake);
      });
      // A quiet slice may mean a lost NOTIFY: ask the database
      if (!notified && !this.reached(position) && Date.now() < deadline) await this.refresh();
    }
    return true;
  }

  /**
   * With a standby: reads its checkpoints again and again, at short and growing pauses, while the
   * primary has announced more than they show, a reader waits for a position they do not show, or
   * until `until`. One loop at a time; a new hint or reader starts its pauses short again.
   */
  private chase(until = 0) {
    this.chaseUntil = Math.max(this.chaseUntil, until);
    this.chasePauseMs = CHASE_FIRST_MS;
    if (this.chasing || this.closed) return;
    this.chasing = true;
    void (async () => {
      try {
        while (!this.closed && this.behind()) {
          await this.refresh();
          if (!this.behind()) break;
          const pause = this.chasePauseMs;
          this.chasePauseMs = Math.min(pause * 2, CHASE_MAX_MS);
          await new Promise((resolve) => setTimeout(resolve, pause));
        }
      } finally {
        this.chasing = false;
      }
    })();
  }

  /** Whether the standby's checkpoints are known to lag what the primary announced or a reader waits for (dropping the hints they have met). */
  private behind(): boolean {
    for (const [key, hinted] of this.ahead) {
      const known = this.live.get(key);
      if (!known || compareLogPositions(known, hinted) >= 0) this.ahead.delete(key);
    }
    if (this.ahead.size > 0 || Date.now() < this.chaseUntil) return true;
    for (const { position } of this.wanted) if (!this.reached(position)) return true;
    return false;
  }

  /**
   * With a standby: how many events of the log its live builds' checkpoints are behind what the
   * primary has announced of them (0 when it shows all it was told; null without a standby).
   */
  standbyBehind(): number | null {
    if (!this.standby) return null;
    let most = 0;
    for (const [key, hinted] of this.ahead) {
      const known = this.live.get(key);
      // a later transaction may hold lower positions (see projectionStatus): behind is at least 1
      if (known && compareLogPositions(known, hinted) < 0) most = Math.max(most, 1, Number(hinted.globalPosition - known.globalPosition));
    }
    return most;
  }

  /** waitFor the position a command answered (its X-Event-Position token); false at once for no token or one that is not a position. */
  async waitForToken(token: string | null | undefined, timeoutMs: number): Promise<boolean> {
    const position = token ? parsePositionToken(token) : null;
    return position ? this.waitFor(position, timeoutMs) : false;
  }

  /**
   * The read side's version: which builds are live and how far each has got. It changes whenever
   * a read model may have (a batch applied, a rebuild switched in), and is the same in every
   * query-service that sees the same checkpoints; null before the first read of them.
   */
  version(): string | null {
    return this.fingerprint;
  }

  /**
   * What projection `name`'s live build has applied, with which build it is: it changes whenever
   * that read model may have changed (the build applied events of its types, a rebuild switched
   * in), not when the build only passes events of other types by; null while it has no live,
   * running build known here. Known with the build's position: once the watcher knows a position
   * reached, this says what the read model held there.
   */
  changeOf(name: string): string | null {
    let found: string | null = null;
    for (const [key, mark] of this.marks) {
      if (this.projectionOf.get(key) !== name) continue;
      const at = `${key}#${mark}`;
      found = found === null ? at : [found, at].sort().join(',');
    }
    return found;
  }

  /**
   * Calls `listener` after each change of what the live builds hold: 'moved' when builds applied
   * more (or a refresh read them again), 'switched' when the live builds are other ones than before
   * (a rebuild switched in, a build halted or came back), which may have changed any read model
   * under its readers. Returns what stops the calls. One listener serves a whole process (the
   * change stream's follower): never one per client.
   */
  onChange(listener: (change: CheckpointChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(change: CheckpointChange = 'moved') {
    const entries = [...this.live].map(([key, p]) => buildAt(key, p)).sort();
    this.fingerprint = entries.length === 0 ? null : createHash('sha256').update(entries.join(',')).digest('base64url').slice(0, 22);
    this.wakeAll();
    for (const listener of [...this.listeners]) listener(change);
  }

  private wakeAll() {
    for (const wake of [...this.waiters]) wake();
  }

  async close() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.wakeAll();
    await this.listener?.close();
    await this.refreshClient?.end().catch(() => {});
  }
}

/** What changed in the live builds (see CheckpointWatcher.onChange). */
export type CheckpointChange = 'moved' | 'switched';

/** A build's mark (see `marks`): its count of applied events, or its position without one. */
const markOf = (position: LogPosition, applied: string | undefined) => applied ?? `@${position.transactionId}.${position.globalPosition}`;

/** A live build and how far it has got, as text. */
const buildAt = (key: string, p: LogPosition) => `${key}@${p.transactionId}.${p.globalPosition}`;
