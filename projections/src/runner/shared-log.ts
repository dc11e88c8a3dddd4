import { compareLogPositions, type LogPosition } from '@forum/contracts';
import type { EventStore, RecordedEvent, Subscription } from '@forum/command-service/eventstore';

interface Consumer {
  after: LogPosition;
  onBatch: (events: readonly RecordedEvent[]) => Promise<void>;
  onCaughtUp?: () => void;
  stopped: boolean;
  finish: (error?: unknown) => void;
  done: Promise<void>;
}

/**
 * One read of the log for every build replaying it in this process. Reading
 * and decoding the log is most of a replay's cost (about 11 s per million
 * events here), so builds started together (`rebuild --all`) share each batch
 * instead of each reading the whole log: the reader serves the build furthest
 * behind, hands every build the events past its own checkpoint, and fetches the
 * next batch while the builds apply this one. A build that leaves (switched
 * in, stopped, failed) just stops taking batches.
 */
export class SharedLogReader {
  private readonly consumers = new Set<Consumer>();
  private running = false;

  constructor(
    private readonly store: EventStore,
    private readonly batchSize: number,
    private readonly idleMs = 50,
  ) {}

  /** `onCaughtUp`: the log has nothing after the consumer's position for now. */
  subscribe(options: { after: LogPosition; onBatch: (events: readonly RecordedEvent[]) => Promise<void>; onCaughtUp?: () => void }): Subscription {
    let finish!: (error?: unknown) => void;
    const done = new Promise<void>((resolve, reject) => {
      finish = (error) => (error === undefined ? resolve() : reject(error));
    });
    done.catch(() => {});
    const consumer: Consumer = { after: options.after, onBatch: options.onBatch, onCaughtUp: options.onCaughtUp, stopped: false, finish, done };
    this.consumers.add(consumer);
    if (!this.running) void this.loop();
    return {
      done,
      stop: async () => {
        consumer.stopped = true;
        await this.idle?.();
        await done.catch(() => {});
      },
    };
  }

  private idle: (() => void) | null = null;

  private async loop() {
    this.running = true;
    let prefetched: { from: LogPosition; batch: Promise<RecordedEvent[]> } | null = null;
    try {
      for (;;) {
        this.retireStopped();
        if (this.consumers.size === 0) return;
        const from = [...this.consumers].map((c) => c.after).reduce((a, b) => (compareLogPositions(a, b) <= 0 ? a : b));
        const batch: RecordedEvent[] = prefetched && compareLogPositions(prefetched.from, from) === 0 ? await prefetched.batch : await this.store.readAll(from, this.batchSize);
        prefetched = null;
        if (batch.length === 0) {
          for (const consumer of this.consumers) if (!consumer.stopped) consumer.onCaughtUp?.();
          await new Promise<void>((resolve) => {
            const wake = () => {
              clearTimeout(timer);
              this.idle = null;
              resolve();
            };
            const timer = setTimeout(wake, this.idleMs);
            this.idle = wake;
          });
          continue;
        }
        const last = batch.at(-1)!.position;
        // the next batch is read while this one is applied
        if (batch.length === this.batchSize) {
          const next = this.store.readAll(last, this.batchSize);
          next.catch(() => {});
          prefetched = { from: last, batch: next };
        }
        await Promise.all(
          [...this.consumers].map(async (consumer) => {
            if (consumer.stopped) return;
            const events = batch.filter((e) => compareLogPositions(e.position, consumer.after) > 0);
            if (events.length === 0) return;
            try {
              await consumer.onBatch(events);
              consumer.after = events.at(-1)!.position;
            } catch (error) {
              consumer.stopped = true;
              this.consumers.delete(consumer);
              consumer.finish(error);
            }
          }),
        );
      }
    } catch (error) {
      // the log could not be read: every consumer ends with the error and starts over
      for (const consumer of this.consumers) consumer.finish(error);
      this.consumers.clear();
    } finally {
      this.running = false;
    }
  }

  private retireStopped() {
    for (const consumer of this.consumers) {
      if (!consumer.stopped) continue;
      this.consumers.delete(consumer);
      consumer.finish();
    }
  }
}
