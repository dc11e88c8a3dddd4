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
