import type { StreamMessage, StreamTopic } from '@forum/contracts';
import type { LiveConnection } from './live-connection';
import type { LiveStreamOptions } from './live-options';

/** What a mounted component does with a message of a topic it follows. */
export type LiveListener = (message: StreamMessage) => void;

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
