/**
 * Sends NOTIFY after commits instead of inside the writing transactions:
 * PostgreSQL takes a database-wide lock at the commit of any transaction that
 * notified, which serialises committers and defeats group commit. Concurrent
 * calls coalesce into at most one NOTIFY in flight and one queued after it.
 * A notification is only a wake-up hint; listeners poll as a fallback.
 */
export class CoalescingNotifier {
  private inFlight = false;
  private pending: string | null = null;

  /** `send` issues `SELECT pg_notify(channel, payload)` on a connection outside any transaction. */
  constructor(private readonly send: (payload: string) => Promise<unknown>) {}

  notify(payload = ''): void {
    if (this.inFlight) {
      this.pending = payload;
      return;
    }
    this.inFlight = true;
    void this.send(payload)
      .catch(() => {})
      .finally(() => {
        this.inFlight = false;
        const next = this.pending;
        this.pending = null;
        if (next !== null) this.notify(next);
      });
  }
}
