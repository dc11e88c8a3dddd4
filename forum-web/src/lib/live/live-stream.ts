import type { StreamMessage, StreamTopic } from '@forum/contracts';
import type { LiveConnection } from './live-connection';

/** What a mounted component does with a message of a topic it follows. */
export type LiveListener = (message: StreamMessage) => void;

export interface LiveStreamOptions {
  /** The API's base URL (`…/api`). */
  baseUrl: string;
  /** The signed-in member's access token, undefined for a visitor: it fetches the ticket of the `me` topic. */
  token: () => Promise<string | undefined>;
  /** Reads again everything shown: the stream could not send what was missed (`refetch`). */
  refetchAll: () => void;
  /**
   * Nothing opens before this has settled: the page's own first reads and the sign-in check come
   * first, and the first stream opens once, with the topics of the signed-in page.
   */
  openAfter?: Promise<unknown>;
  /** How long a hidden tab keeps its stream before closing it (a quick switch of tabs does not churn). */
  hiddenGraceMs?: number;
  /** The first and the longest wait before opening again after the stream failed or ended (doubled each time, with jitter). */
  retryMs?: { first: number; max: number };
  /**
   * The longest random wait before acting on a message every open page gets at once (`refetch`,
   * `announcement-published`): thousands of readers do not read the same thing in the same instant.
   */
  spreadMs?: number;
  /** Defaults to the browser's; where there is none (jsdom), the stream never opens and the app works as without it. */
  EventSource?: typeof EventSource;
  fetch?: typeof fetch;
  document?: Document;
  /** Where the browser says it is back online (`online`): a stream waiting to open again opens at once. */
  window?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  random?: () => number;
}

/**
 * The tab's change stream (`GET /api/stream`, docs/live-web.md) as the components see it: each
 * follows topics (`subscribe`), and the stream follows the union of them, opened again when it
 * changes. This part is all the page loads at first; the connection itself (EventSource, resume,
 * tickets, retries, hidden tabs: ./live-connection.ts) and the contract's schemas load once there
 * is a stream to open, after `openAfter`. Where the browser has no EventSource (jsdom) nothing opens.
 */
export class LiveStream {
  private readonly listeners = new Map<StreamTopic, Set<LiveListener>>();
  private connection: Promise<LiveConnection> | undefined;
  private started = false;
  private syncTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: LiveStreamOptions) {
    const start = () => {
      this.started = true;
      this.scheduleSync();
    };
    void (options.openAfter ?? Promise.resolve()).then(start, start);
  }

  /** Hands `listener` every message of `topic` until the returned function is called. */
  subscribe(topic: StreamTopic, listener: LiveListener): () => void {
    const set = this.listeners.get(topic) ?? new Set();
    set.add(listener);
    this.listeners.set(topic, set);
    this.scheduleSync();
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(topic) === set) this.listeners.delete(topic);
      this.scheduleSync();
    };
  }

  /** Closes the stream for good (the app is going away). */
  dispose(): void {
    clearTimeout(this.syncTimer);
    this.started = false;
    this.listeners.clear();
    void this.connection?.then((connection) => connection.dispose());
  }

  // Mounts and unmounts of one render (a route change, StrictMode's double effects) make one change of topics.
  private scheduleSync(): void {
    clearTimeout(this.syncTimer);
    this.syncTimer = setTimeout(() => this.sync(), 0);
  }

  private sync(): void {
    const EventSource = this.options.EventSource ?? globalThis.EventSource;
    if (!this.started || !EventSource || (this.listeners.size === 0 && !this.connection)) return;
    this.connection ??= import('./live-connection').then(
      ({ LiveConnection }) => new LiveConnection({ ...this.options, EventSource }, (topics, message) => this.hand(topics, message)),
    );
    this.connection.then(
      (connection) => connection.want(this.started ? [...this.listeners.keys()] : []),
      () => {
        // its code could not load (offline as the page came): the next change of topics tries again
        this.connection = undefined;
      },
    );
  }

  private hand(topics: readonly StreamTopic[], message: StreamMessage): void {
    for (const topic of topics) {
      for (const listener of [...(this.listeners.get(topic) ?? [])]) listener(message);
    }
  }
}
