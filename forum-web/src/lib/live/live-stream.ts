import type { StreamMessage, StreamMessageType, StreamTopic } from '@forum/contracts';
import { topicsOf } from './topics';

type Schemas = typeof import('./stream-schemas');
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

const SPREAD_TYPES: ReadonlySet<StreamMessageType> = new Set(['refetch', 'announcement-published']);

/**
 * One change stream for the tab (`GET /api/stream`, docs/live.md): the union of the topics its
 * mounted components follow, opened again when that set changes (with the last event id, so the
 * server replays what came between). Messages are checked against the contract; one that is not
 * is dropped. A member's `me` topic takes a fresh ticket at every opening. When the stream fails
 * or the server ends it, it opens again after a growing, jittered wait; a tab hidden longer than
 * the grace closes it and opens it again when shown (the server replays what was missed or says
 * refetch). While it is down nothing is shown: the app reads as it does without it.
 */
export class LiveStream {
  private readonly listeners = new Map<StreamTopic, Set<LiveListener>>();
  private readonly options: Required<Omit<LiveStreamOptions, 'EventSource' | 'openAfter'>> & { EventSource: typeof EventSource | undefined };
  private source: EventSource | null = null;
  /** The topics (sorted, comma-joined) of the stream that is open or opening; null when none is. */
  private openTopics: string | null = null;
  /** Each opening's number: an opening that is no longer the latest drops what it awaited. */
  private opening = 0;
  private lastEventId: string | null = null;
  private failures = 0;
  private paused = false;
  private started = false;
  private syncTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private hiddenTimer: ReturnType<typeof setTimeout> | undefined;
  private schemas: Promise<Schemas> | undefined;

  constructor(options: LiveStreamOptions) {
    this.options = {
      hiddenGraceMs: 10_000,
      retryMs: { first: 1_000, max: 60_000 },
      spreadMs: 2_000,
      EventSource: globalThis.EventSource,
      fetch: (...args) => globalThis.fetch(...args),
      document: globalThis.document,
      window: globalThis.window,
      random: Math.random,
      ...options,
    };
    this.options.document?.addEventListener('visibilitychange', this.visibilityChanged);
    this.options.window?.addEventListener('online', this.backOnline);
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
    this.options.document?.removeEventListener('visibilitychange', this.visibilityChanged);
    this.options.window?.removeEventListener('online', this.backOnline);
    for (const timer of [this.syncTimer, this.retryTimer, this.hiddenTimer]) clearTimeout(timer);
    this.listeners.clear();
    this.close();
  }

  // Mounts and unmounts of one render (a route change, StrictMode's double effects) make one change of topics.
  private scheduleSync(): void {
    clearTimeout(this.syncTimer);
    this.syncTimer = setTimeout(() => this.sync(), 0);
  }

  private wantedTopics(): string | null {
    if (!this.started || this.paused || !this.options.EventSource || this.listeners.size === 0) return null;
    return [...this.listeners.keys()].sort().join(',');
  }

  private sync(): void {
    const wanted = this.wantedTopics();
    if (wanted === this.openTopics) return;
    this.close();
    // waiting to try again after a failure: that attempt opens the topics wanted by then
    if (wanted !== null && this.retryTimer === undefined) void this.open(wanted);
  }

  private close(): void {
    this.opening++;
    this.openTopics = null;
    this.source?.close();
    this.source = null;
  }

  private async open(topics: string): Promise<void> {
    const opening = ++this.opening;
    this.openTopics = topics;
    try {
      const schemas = await (this.schemas ??= import('./stream-schemas').catch((error: unknown) => {
        this.schemas = undefined; // offline when it was first needed: the next opening loads it
        throw error;
      }));
      const ticket = topics.split(',').includes('me') ? await this.ticket(schemas) : undefined;
      if (opening !== this.opening) return;
      const url = new URL(`${this.options.baseUrl}/stream`);
      url.searchParams.set('topics', topics);
      if (ticket) url.searchParams.set('ticket', ticket);
      // a new EventSource cannot send Last-Event-ID: the server takes it from the address too
      if (this.lastEventId) url.searchParams.set('lastEventId', this.lastEventId);
      const source = new this.options.EventSource!(url.href);
      this.source = source;
      for (const type of Object.keys(schemas.StreamMessages) as StreamMessageType[]) {
        source.addEventListener(type, (event) => this.received(schemas, type, event as MessageEvent<unknown>));
      }
      // Also when the server ends the stream: the browser would open the same address again, with
      // a ticket that may have expired and the Last-Event-ID of its own; this client opens its own.
      source.addEventListener('error', () => {
        if (source === this.source) this.failed();
      });
    } catch {
      // no ticket, or the schemas' code could not load: as a failed stream (the app works without it)
      if (opening === this.opening) this.failed();
    }
  }

  private async ticket(schemas: Schemas): Promise<string> {
    const token = await this.options.token();
    const response = await this.options.fetch(`${this.options.baseUrl}/stream/ticket`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      cache: 'no-store',
    });
    if (!response.ok) throw new Error(`GET /api/stream/ticket answered ${response.status}`);
    return schemas.StreamTicket.parse(await response.json()).ticket;
  }

  private received(schemas: Schemas, type: StreamMessageType, event: MessageEvent<unknown>): void {
    if (event.lastEventId) this.lastEventId = event.lastEventId;
    let data: unknown;
    try {
      data = JSON.parse(String(event.data));
    } catch {
      return;
    }
    const parsed = schemas.StreamMessages[type].safeParse(data);
    if (!parsed.success) return;
    const message = { type, data: parsed.data } as StreamMessage;
    if (message.type === 'ready') {
      this.failures = 0;
      return;
    }
    if (SPREAD_TYPES.has(type)) setTimeout(() => this.deliver(message), this.options.random() * this.options.spreadMs);
    else this.deliver(message);
  }

  private deliver(message: StreamMessage): void {
    if (message.type === 'refetch') {
      this.options.refetchAll();
      return;
    }
    for (const topic of topicsOf(message)) {
      for (const listener of [...(this.listeners.get(topic) ?? [])]) listener(message);
    }
  }

  private failed(): void {
    this.close();
    const { first, max } = this.options.retryMs;
    const wait = Math.min(max, first * 2 ** this.failures) * (0.5 + this.options.random() / 2);
    this.failures++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.sync();
    }, wait);
  }

  private readonly visibilityChanged = () => {
    clearTimeout(this.hiddenTimer);
    if (this.options.document.visibilityState === 'hidden') {
      this.hiddenTimer = setTimeout(() => {
        this.paused = true;
        this.sync();
      }, this.options.hiddenGraceMs);
    } else if (this.paused) {
      // shown again: open now, with the last event id
      this.paused = false;
      this.openNow();
    }
  };

  private readonly backOnline = () => {
    if (this.retryTimer !== undefined) this.openNow();
  };

  /** Opens the wanted stream without waiting out a retry. */
  private openNow(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.failures = 0;
    this.sync();
  }
}
