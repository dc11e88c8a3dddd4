import { setTimeout as delay } from 'node:timers/promises';
import type { FeedMessage, FeedPublisher } from '../port.ts';

/** One publish call as the broker saw it: whose, when it began and ended (performance.now()), what it delivered. */
export interface PublishCall {
  readonly publisher: string;
  readonly began: number;
  ended: number | null;
  delivered: readonly FeedMessage[];
}

/**
 * The publish calls of several publishers (several relays of one feed) in one place, as one broker
 * would see them: every call in the order it began, and every delivered message in delivery order.
 */
export class PublishJournal {
  readonly calls: PublishCall[] = [];
  readonly delivered: FeedMessage[] = [];

  /** Pairs of calls of different publishers that were under way at the same time. */
  overlaps(): [PublishCall, PublishCall][] {
    const found: [PublishCall, PublishCall][] = [];
    for (const [i, a] of this.calls.entries())
      for (const b of this.calls.slice(i + 1))
        if (a.publisher !== b.publisher && b.began < (a.ended ?? Infinity) && a.began < (b.ended ?? Infinity)) found.push([a, b]);
    return found;
  }
}

/**
 * A stand-in for the broker in the relay's tests: it keeps what it acknowledged, in order, and can
 * be told to fail, to hold its acknowledgements, or to deliver a batch and then fail (an
 * acknowledgement lost on the way back, after which the relay sends the batch again).
 */
export class MemoryFeedPublisher implements FeedPublisher {
  /** Every message delivered, in delivery order (a batch sent again appears again). */
  readonly delivered: FeedMessage[] = [];
  /** Publish calls, including those that failed. */
  calls = 0;
  inFlight = 0;
  maxInFlight = 0;
  private failures: ('refuse' | 'lose-ack')[] = [];
  private held: (() => void)[] = [];
  private holding = false;

  /**
   * `name` and `journal`: several publishers write their calls to one journal; `latencyMs`: each
   * publish takes that long before it delivers, as a broker's round trip does.
   */
  constructor(private readonly options: { name?: string; journal?: PublishJournal; latencyMs?: number } = {}) {}

  /** The next publishes fail: 'refuse' delivers nothing, 'lose-ack' delivers the batch and then fails. */
  failNext(...how: ('refuse' | 'lose-ack')[]): void {
    this.failures.push(...how);
  }

  /** Publishes wait until `release()`. */
  hold(): void {
    this.holding = true;
  }

  release(): void {
    this.holding = false;
    for (const go of this.held.splice(0)) go();
  }

  /** Publishes waiting to be acknowledged. */
  get waiting(): number {
    return this.held.length;
  }

  async publish(messages: readonly FeedMessage[]): Promise<void> {
    this.calls++;
    this.inFlight += messages.length;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const { journal, latencyMs, name = 'publisher' } = this.options;
    const call: PublishCall = { publisher: name, began: performance.now(), ended: null, delivered: [] };
    journal?.calls.push(call);
    try {
      if (this.holding) await new Promise<void>((go) => this.held.push(go));
      if (latencyMs) await delay(latencyMs);
      const failure = this.failures.shift();
      if (failure === 'refuse') throw new Error('broker unavailable (test)');
      this.delivered.push(...messages);
      journal?.delivered.push(...messages);
      call.delivered = messages;
      if (failure === 'lose-ack') throw new Error('acknowledgement lost (test)');
    } finally {
      this.inFlight -= messages.length;
      call.ended = performance.now();
    }
  }

  async close(): Promise<void> {}
}
