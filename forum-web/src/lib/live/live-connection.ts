import type { StreamMessage, StreamMessageType, StreamTopic } from '@forum/contracts';
import type { LiveStreamOptions } from './live-options';
import { StreamMessages, StreamTicket } from './stream-schemas';
import { topicsOf } from './topics';

const SPREAD_TYPES: ReadonlySet<StreamMessageType> = new Set(['refetch', 'announcement-published']);

/**
 * The tab's EventSource on `GET /api/stream` (docs/live-web.md), for the topics LiveStream wants:
 * opened again when they change (with the last event id, so the server replays what came between).
 * Messages are checked against the contract; one that is not is dropped. A member's `me` topic
 * takes a fresh ticket at every opening. When the stream fails or the server ends it, it opens
 * again after a growing, jittered wait; a tab hidden longer than the grace closes it and opens it
 * again when shown (the server replays what was missed or says refetch). While it is down nothing
 * is shown: the app reads as it does without it. Loaded with the first stream, not with the page.
 */
export class LiveConnection {
  private readonly options: Required<Omit<LiveStreamOptions, 'EventSource' | 'openAfter'>> & { EventSource: typeof EventSource };
  /** The topics wanted (sorted, comma-joined); null for none. */
  private wanted: string | null = null;
  private source: EventSource | null = null;
  /** The topics (sorted, comma-joined) of the stream that is open or opening; null when none is. */
  private openTopics: string | null = null;
  /** Each opening's number: an opening that is no longer the latest drops what it awaited. */
  private opening = 0;
  private lastEventId: string | null = null;
  private failures = 0;
  private paused = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private hiddenTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    options: LiveStreamOptions & { EventSource: typeof EventSource },
    /** Hands a message to the components that follow its topics. */
    private readonly hand: (topics: readonly StreamTopic[], message: StreamMessage) => void,
  ) {
    this.options = {
      hiddenGraceMs: 10_000,
      retryMs: { first: 1_000, max: 60_000 },
      spreadMs: 2_000,
      fetch: (...args) => globalThis.fetch(...args),
      document: globalThis.document,
      window: globalThis.window,
      random: Math.random,
      ...options,
    };
    this.options.document?.addEventListener('visibilitychange', this.visibilityChanged);
    this.options.window?.addEventListener('online', this.backOnline);
  }

  /** Follows `topics` (none: closes the stream). */
  want(topics: readonly StreamTopic[]): void {
    this.wanted = topics.length === 0 ? null : [...topics].sort().join(',');
    this.sync();
  }

  /** Closes the stream for good (the app is going away). */
  dispose(): void {
    this.options.document?.removeEventListener('visibilitychange', this.visibilityChanged);
    this.options.window?.removeEventListener('online', this.backOnline);
    for (const timer of [this.retryTimer, this.hiddenTimer]) clearTimeout(timer);
    this.wanted = null;
    this.close();
  }

  private wantedTopics(): string | null {
    return this.paused ? null : this.wanted;
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
      const ticket = topics.split(',').includes('me') ? await this.ticket() : undefined;
      if (opening !== this.opening) return;
      const url = new URL(`${this.options.baseUrl}/stream`);
      url.searchParams.set('topics', topics);
      if (ticket) url.searchParams.set('ticket', ticket);
      // a new EventSource cannot send Last-Event-ID: the server takes it from the address too
      if (this.lastEventId) url.searchParams.set('lastEventId', this.lastEventId);
      const source = new this.options.EventSource(url.href);
      this.source = source;
      for (const type of Object.keys(StreamMessages) as StreamMessageType[]) {
        source.addEventListener(type, (event) => this.received(type, event as MessageEvent<unknown>));
      }
      // Also when the server ends the stream: the browser would open the same address again, with
      // a ticket that may have expired and the Last-Event-ID of its own; this client opens its own.
      source.addEventListener('error', () => {
        if (source === this.source) this.failed();
      });
    } catch {
      // no ticket: as a failed stream (the app works without it)
      if (opening === this.opening) this.failed();
    }
  }

  private async ticket(): Promise<string> {
    const token = await this.options.token();
    const response = await this.options.fetch(`${this.options.baseUrl}/stream/ticket`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      cache: 'no-store',
    });
    if (!response.ok) throw new Error(`GET /api/stream/ticket answered ${response.status}`);
    return StreamTicket.parse(await response.json()).ticket;
  }

  private received(type: StreamMessageType, event: MessageEvent<unknown>): void {
    if (event.lastEventId) this.lastEventId = event.lastEventId;
    let data: unknown;
    try {
      data = JSON.parse(String(event.data));
    } catch {
      return;
    }
    const parsed = StreamMessages[type].safeParse(data);
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
    this.hand(topicsOf(message), message);
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
