import { compareLogPositions, type LogPosition } from '@forum/contracts';
import type { EventStore, RecordedEvent, Subscription } from '@forum/eventstore';
import { abortableSleep } from '@forum/platform';

/** A batch of the log: the events a consumer reads among those up to `upTo` (its new position). */
export interface LogBatch {
  readonly events: readonly RecordedEvent[];
  readonly upTo: LogPosition;
}

/** How many batches' worth of the log a filtered read goes through at once. */
const FILTERED_SCAN = 10;

/** What a read fetches, fixed when it starts: from where, which types, and for whom. */
interface ReadPlan {
  readonly from: LogPosition;
  /** The event types read (undefined: all). */
  readonly types: readonly string[] | undefined;
  /** `types` as a key, to match a prefetched read with the next plan. */
  readonly key: string;
  /** The consumers subscribed when the read started: only they may take its batch. */
  readonly served: ReadonlySet<Consumer>;
}

interface Read extends LogBatch {
  readonly plan: ReadPlan;
  /** The types the batch holds every event of (undefined: all; a log not in SQL is read whole). */
  readonly types: readonly string[] | undefined;
  /** As many events as asked for: more may follow at once. */
  readonly full: boolean;
}

interface Consumer {
  after: LogPosition;
  /** The event types it reads (undefined: all). */
  types: readonly string[] | undefined;
  onBatch: (batch: LogBatch) => Promise<void>;
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
 *
 * When every build names the event types it reads and the log is in SQL, the
 * reader fetches only those (a rebuild of the small projections reads some
 * 40k events of a million instead of decoding them all); each build's
 * position still moves over the rest of the batch.
 */
export class SharedLogReader {
  private readonly consumers = new Set<Consumer>();
  private running = false;

  constructor(
    private readonly store: EventStore,
    private readonly batchSize: number,
    private readonly idleMs = 50,
  ) {}

  /** `onCaughtUp`: the consumer has reached the end of the log as a read found it. */
  subscribe(options: { after: LogPosition; types?: readonly string[]; onBatch: (batch: LogBatch) => Promise<void>; onCaughtUp?: () => void }): Subscription {
    let finish!: (error?: unknown) => void;
    const done = new Promise<void>((resolve, reject) => {
      finish = (error) => (error === undefined ? resolve() : reject(error instanceof Error ? error : new Error('the subscription ended', { cause: error })));
    });
    done.catch(() => {});
    const consumer: Consumer = {
      after: options.after,
      types: options.types,
      onBatch: options.onBatch,
      onCaughtUp: options.onCaughtUp,
      stopped: false,
      finish,
      done,
    };
    this.consumers.add(consumer);
    if (!this.running) void this.loop();
    return {
      done,
      stop: async () => {
        consumer.stopped = true;
        this.idle?.abort();
        await done.catch(() => {});
      },
    };
  }

  /** Cuts the loop's wait at the log's end short (a consumer stopping). */
  private idle: AbortController | null = null;

  private async loop() {
    this.running = true;
    let prefetched: { plan: ReadPlan; read: Promise<Read | null> } | null = null;
    try {
      for (;;) {
        this.retireStopped();
        if (this.consumers.size === 0) return;
        const plan = this.plan(this.lowestPosition());
        const batch: Read | null =
          prefetched && compareLogPositions(prefetched.plan.from, plan.from) === 0 && prefetched.plan.key === plan.key
            ? await prefetched.read
            : await this.read(plan);
        prefetched = null;
        if (batch === null) {
          // nothing after the read's start: caught up, those it was read for that were not behind it
          for (const consumer of this.consumers) if (this.readFor({ plan, types: undefined }, consumer)) consumer.onCaughtUp?.();
          this.idle = new AbortController();
          await abortableSleep(this.idleMs, this.idle.signal);
          this.idle = null;
          continue;
        }
        // the next batch is read while this one is applied, for the consumers here now, of the same types
        if (batch.full) {
          const next: ReadPlan = { ...this.plan(batch.upTo), types: batch.plan.types, key: batch.plan.key };
          const read = this.read(next);
          read.catch(() => {});
          prefetched = { plan: next, read };
        }
        await Promise.all(
          [...this.consumers].map(async (consumer) => {
            if (!this.readFor(batch, consumer) || compareLogPositions(batch.upTo, consumer.after) <= 0) return;
            const events = batch.events.filter(
              (e) => compareLogPositions(e.position, consumer.after) > 0 && (consumer.types === undefined || consumer.types.includes(e.type)),
            );
            try {
              await consumer.onBatch({ events, upTo: batch.upTo });
              consumer.after = batch.upTo;
              // a batch short of the size asked for ends where the log ended: a log written to
              // all the time may never answer a read with nothing
              if (!batch.full) consumer.onCaughtUp?.();
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

  /**
   * Whether a read's batch is the whole log of the consumer's types after its
   * position, up to the batch's end: the consumer was subscribed when the read
   * started, is not behind where it started, and reads none of the types it
   * left out. A consumer's position moves over a batch only then: one that
   * joined meanwhile waits for the next read, which starts from its position
   * and reads its types.
   */
  private readFor({ plan, types }: Pick<Read, 'plan' | 'types'>, consumer: Consumer): boolean {
    if (consumer.stopped || !plan.served.has(consumer) || compareLogPositions(plan.from, consumer.after) > 0) return false;
    if (types === undefined) return true;
    return consumer.types !== undefined && consumer.types.every((type) => types.includes(type));
  }

  /** A read from `from` of the types the consumers subscribed now read, for them. */
  private plan(from: LogPosition): ReadPlan {
    const types = this.typesRead();
    return { from, types, key: types?.join() ?? '*', served: new Set([...this.consumers].filter((c) => !c.stopped)) };
  }

  private lowestPosition(): LogPosition {
    return [...this.consumers].map((c) => c.after).reduce((a, b) => (compareLogPositions(a, b) <= 0 ? a : b));
  }

  /** The types some consumer reads (undefined: all, as one of them reads all). */
  private typesRead(): string[] | undefined {
    return typesOf(this.consumers);
  }

  /** The next batch after the plan's start (null: nothing after it yet), only of its types where the log is in SQL. */
  private async read(plan: ReadPlan): Promise<Read | null> {
    const { from, types } = plan;
    const log = this.store.sql;
    if (types && log) {
      // a stretch of the log some times a batch: most of it is of types no build here reads
      const limit = this.batchSize * FILTERED_SCAN;
      const next = await log.nextRange(from, { limit, types: [] });
      if (!next) return null;
      // only the types of the consumers the stretch reaches: one already past its end (a build that
      // staged up to the log's tail, waiting there for the others) takes nothing of it, and its types
      // (a rebuild's posts: the votes, half the log) would be read and decoded for no one
      const reached = typesOf([...plan.served].filter((consumer) => compareLogPositions(consumer.after, next.range.upTo) < 0)) ?? types;
      const read = reached.length > 0 ? reached : types;
      return { plan, types: read, events: await log.read(next.range, read), upTo: next.range.upTo, full: next.events === limit };
    }
    const events = await this.store.readAll(from, this.batchSize);
    if (events.length === 0) return null;
    // every type: each consumer takes its own
    return { plan, types: undefined, events, upTo: events.at(-1)!.position, full: events.length === this.batchSize };
  }

  private retireStopped() {
    for (const consumer of this.consumers) {
      if (!consumer.stopped) continue;
      this.consumers.delete(consumer);
      consumer.finish();
    }
  }
}

/** The types some of `consumers` read, sorted (undefined: all, as one of them reads all). */
function typesOf(consumers: Iterable<Consumer>): string[] | undefined {
  const types = new Set<string>();
  for (const consumer of consumers) {
    if (consumer.types === undefined) return undefined;
    for (const type of consumer.types) types.add(type);
  }
  return [...types].sort();
}
