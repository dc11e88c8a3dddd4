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
export const HEADER_IDEMPOTENCY_KEY = 'Idempotency-Key';
export const HEADER_REQUEST_ID = 'X-Request-Id';
export const HEADER_CORRELATION_ID = 'X-Correlation-Id';
