import type { FeedMessage, FeedPublisher } from '../port.ts';

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
    try {
      if (this.holding) await new Promise<void>((go) => this.held.push(go));
      const failure = this.failures.shift();
      if (failure === 'refuse') throw new Error('broker unavailable (test)');
      this.delivered.push(...messages);
      if (failure === 'lose-ack') throw new Error('acknowledgement lost (test)');
    } finally {
      this.inFlight -= messages.length;
    }
  }

  async close(): Promise<void> {}
}
