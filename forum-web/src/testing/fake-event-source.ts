import { vi } from 'vitest';

/**
 * The browser's EventSource for component tests (jsdom has none): each one the app opens is kept
 * in `FakeEventSource.opened`, and the test plays the server's part on it: `send` a message (SSE
 * event name, data, id), `fail` it (a network error, or the server ending the stream), and reads
 * which address it opened (`topics`, `param`) and whether the app has closed it.
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  /** Every stream opened since `installFakeEventSource`, oldest first. */
  static opened: FakeEventSource[] = [];

  readonly url: string;
  readonly withCredentials = false;
  readyState = FakeEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(url: string | URL) {
    super();
    this.url = String(url);
    FakeEventSource.opened.push(this);
  }

  /** The stream opened last. */
  static latest(): FakeEventSource {
    const latest = FakeEventSource.opened.at(-1);
    if (!latest) throw new Error('no EventSource was opened');
    return latest;
  }

  /** The streams the app has opened and not closed. */
  static live(): FakeEventSource[] {
    return FakeEventSource.opened.filter((source) => source.readyState !== FakeEventSource.CLOSED);
  }

  /** The topics the stream asked for, sorted. */
  get topics(): string[] {
    return (this.param('topics') ?? '').split(',').filter(Boolean).sort();
  }

  param(name: string): string | null {
    return new URL(this.url).searchParams.get(name);
  }

  /** The server sends a message: `data` as JSON unless it is a string already. */
  send(event: string, data: unknown, id = ''): void {
    this.readyState = FakeEventSource.OPEN;
    this.dispatchEvent(new MessageEvent(event, { data: typeof data === 'string' ? data : JSON.stringify(data), lastEventId: id }));
  }

  /** The stream breaks (`closed`: the server refused it) or ends: the browser would try the same address again. */
  fail({ closed = false } = {}): void {
    this.readyState = closed ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    const event = new Event('error');
    this.onerror?.(event);
    this.dispatchEvent(event);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }
}

/** Gives the page FakeEventSource as its EventSource for the test (undone by vi.unstubAllGlobals). */
export function installFakeEventSource(): typeof FakeEventSource {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  return FakeEventSource;
}

/** Sets `document.visibilityState` and tells the page, as a browser does when its tab is hidden or shown. */
export function setVisibility(state: 'hidden' | 'visible'): void {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

/** The open stream that follows `topic`, once the app has opened one. */
export async function streamFollowing(topic: string): Promise<FakeEventSource> {
  return vi.waitFor(() => {
    const source = FakeEventSource.live().find((open) => open.topics.includes(topic));
    if (!source) throw new Error(`no open stream follows ${topic}`);
    return source;
  });
}
