import type { LogPosition } from '@forum/contracts';

/**
 * One event of the log as the feed carries it: keyed by its stream (a broker keeps one key's
 * messages in order), its value JSON, its headers the facts a consumer routes and drops
 * duplicates by without reading the value. `position` is the event's place in the log.
 */
export interface FeedMessage {
  readonly key: string;
  readonly value: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly position: LogPosition;
}

/**
 * Where the relay publishes (the Kafka adapter in the distributed layout; a test double in the
 * relay's tests). `publish` resolves only once the broker has acknowledged every message durably,
 * and rejects if it could not say so for each one: the relay moves its checkpoint only after it
 * resolves, and sends the same messages again after a rejection, so a publisher may deliver a
 * message twice but must never report one it lost.
 */
export interface FeedPublisher {
  /** Publishes `messages`, keeping their order among messages of one key. */
  publish(messages: readonly FeedMessage[]): Promise<void>;
  close(): Promise<void>;
}
