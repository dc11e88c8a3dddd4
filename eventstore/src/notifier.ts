/** The least time between two sends of one notifier (ms): what a busy channel adds to a listener's wait. */
export const NOTIFY_GAP_MS = 10;

/**
 * Sends NOTIFY after commits instead of inside the writing transactions:
 * PostgreSQL takes a database-wide lock at the commit of any transaction that
 * notified, which serialises committers and defeats group commit. Concurrent
 * calls coalesce into at most one send in flight; those that come meanwhile go
 * together in the next, the latest payload of each key (a build's checkpoint
 * notification replaces its own earlier one, never another build's).
 * Sends start at least `minGapMs` apart: an idle channel notifies at once, a busy
 * one about every `minGapMs` (without the gap, a busy channel sent one statement
 * after another: a quarter of the forum's statements under load).
 * A notification is only a wake-up hint; listeners poll as a fallback.
 */
export class CoalescingNotifier {
  private inFlight = false;
  private waiting: NodeJS.Timeout | null = null;
  private lastSent = Number.NEGATIVE_INFINITY;
  private readonly pending = new Map<string, string>();

  /**
   * `send` issues one NOTIFY per payload, all in one statement, on a connection outside any
   * transaction; `keyOf` says which payloads replace each other (by default, equal ones).
   */
  constructor(
    private readonly send: (payloads: readonly string[]) => Promise<unknown>,
    private readonly keyOf: (payload: string) => string = (payload) => payload,
    private readonly minGapMs = NOTIFY_GAP_MS,
  ) {}

  notify(payload = ''): void {
    const key = this.keyOf(payload);
    this.pending.delete(key);
    this.pending.set(key, payload);
    this.flush();
  }

  private flush(): void {
    if (this.inFlight || this.waiting || this.pending.size === 0) return;
    const wait = this.lastSent + this.minGapMs - performance.now();
    if (wait > 0) {
      this.waiting = setTimeout(() => {
        this.waiting = null;
        this.flush();
      }, wait);
      this.waiting.unref();
      return;
    }
    const payloads = [...this.pending.values()];
    this.pending.clear();
    this.inFlight = true;
    this.lastSent = performance.now();
    void this.send(payloads)
      .catch(() => {})
      .finally(() => {
        this.inFlight = false;
        this.flush();
      });
  }
}

/** One statement sending a NOTIFY on `$1` for each payload of `$2`. */
export const NOTIFY_ALL = 'SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload';

/**
 * DataLoader options for statements that gather what is asked for in one turn of the event loop
 * (commands or subscribers woken together) and cache nothing: each batch reads the database as
 * it stands.
 */
export const ONE_TURN = { cache: false, batchScheduleFn: (dispatch: () => void) => setImmediate(dispatch) } as const;
