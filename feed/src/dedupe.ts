import { compareLogPositions, parsePositionToken, type LogPosition } from '@forum/contracts';
import { FEED_HEADERS } from './message.ts';

/**
 * What a consumer of the feed keeps to drop duplicates: per partition, the position of the last
 * event it handled. The relay publishes in log order, so within a partition first deliveries come
 * with rising positions, and a message at or below the kept one is a duplicate (the relay sent it
 * again after a restart or a failed acknowledgement). A real consumer stores the kept positions
 * with the effects of the messages, in one transaction (docs/kafka.md).
 */
type Headers = ReadonlyMap<string, string> | Readonly<Record<string, string>>;
const isMap = (headers: Headers): headers is ReadonlyMap<string, string> => headers instanceof Map;

export class SeenPositions {
  private readonly last = new Map<string, LogPosition>();

  /** Whether the message (by its position header) is new on its partition; if so it is kept as the last one seen. */
  firstTime(partition: string, headers: Headers): boolean {
    const token = isMap(headers) ? headers.get(FEED_HEADERS.position) : headers[FEED_HEADERS.position];
    const position = token === undefined ? null : parsePositionToken(token);
    if (!position) throw new Error(`a feed message without a valid ${FEED_HEADERS.position} header`);
    const kept = this.last.get(partition);
    if (kept && compareLogPositions(position, kept) <= 0) return false;
    this.last.set(partition, position);
    return true;
  }
}
