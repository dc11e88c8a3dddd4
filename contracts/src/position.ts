/**
 * A position in the global event log: the writing transaction's id and the
 * event's global position. Readers order by (transactionId, globalPosition), so
 * this pair, not the position alone, says whether a reader has passed an event.
 * Clients treat the token form as opaque: they pass back what X-Event-Position gave.
 */
export interface LogPosition {
  readonly transactionId: bigint;
  readonly globalPosition: bigint;
}

export const START: LogPosition = { transactionId: 0n, globalPosition: 0n };

export function compareLogPositions(a: LogPosition, b: LogPosition): number {
  if (a.transactionId !== b.transactionId) return a.transactionId < b.transactionId ? -1 : 1;
  if (a.globalPosition !== b.globalPosition) return a.globalPosition < b.globalPosition ? -1 : 1;
  return 0;
}

export function positionToken(p: LogPosition): string {
  return `${p.transactionId}.${p.globalPosition}`;
}

export function parsePositionToken(token: string): LogPosition | null {
  const match = /^(\d{1,20})\.(\d{1,20})$/.exec(token.trim());
  if (!match) return null;
  return { transactionId: BigInt(match[1]!), globalPosition: BigInt(match[2]!) };
}

export const HEADER_EVENT_POSITION = 'X-Event-Position';
export const HEADER_MIN_POSITION = 'X-Min-Position';
/** Set by the query side when it answered before reaching the requested position. */
export const HEADER_READ_BEHIND = 'X-Read-Behind';
/**
 * How the forum's web apps answer `X-Read-Behind`: the read is made again, at the same position,
 * up to `tries` times in all, `pauseMs` apart. The server has already waited (MIN_POSITION_WAIT_MS)
 * at every try, so the read models get several seconds to catch up before the page shows the
 * answer as it is.
 */
export const READ_BEHIND_RETRY = { tries: 5, pauseMs: 250 } as const;
export const HEADER_IDEMPOTENCY_KEY = 'Idempotency-Key';
/** What an Idempotency-Key may be: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Set on a command's answer that replays the first answer of its Idempotency-Key. */
export const HEADER_IDEMPOTENT_REPLAYED = 'Idempotent-Replayed';
export const HEADER_REQUEST_ID = 'X-Request-Id';
export const HEADER_CORRELATION_ID = 'X-Correlation-Id';

/**
 * Read-your-writes: the position of the newest event a client's commands appended (their
 * `X-Event-Position`), to send as `X-Min-Position` on its reads after them: read-your-writes on
 * an eventually consistent read side (forum-web's api, admin-web's data provider).
 */
export class WrittenPosition {
  private token: string | null = null;

  /** Keeps `token` if it is further on in the log than the one kept. */
  saw(token: string | null | undefined): void {
    const next = token ? parsePositionToken(token) : null;
    if (!next) return;
    const kept = this.token ? parsePositionToken(this.token) : null;
    if (!kept || compareLogPositions(next, kept) > 0) this.token = token!;
  }

  get(): string | null {
    return this.token;
  }
}
