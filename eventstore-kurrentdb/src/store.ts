import { compareLogPositions, START, upcastOnRead, type EventMetadata, type LogPosition } from '@forum/contracts';
import {
  selectedBy,
  type AppendOutcome,
  type AppendResult,
  type ErasedAs,
  type EventStore,
  type IdempotentAppend,
  type NewEvent,
  type RecordedEvent,
  type StreamAppend,
  type StreamRead,
  type Subscription,
} from '@forum/eventstore';
import {
  BACKWARDS,
  END,
  jsonEvent,
  KurrentDBClient,
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError as KurrentConflict,
  type AllStreamResolvedEvent,
  type AppendStreamRequest,
  type EventData,
  type ReadPosition,
  type RecordedEvent as KurrentRecordedEvent,
} from '@kurrent/kurrentdb-client';
import { logFilter } from './filters.ts';
import { ANSWERED, CLAIMED, COMMITTED, IdempotencyKeyInDoubtError, keyState, keyStream, newOwner, RELEASED } from './idempotency.ts';
import { openKeystore, type Keystore } from './keystore.ts';
import { decodeMetadata, encodeMetadata, eventId, readFrom, toLogPosition, toPortError, toStreamState, versionOf } from './wire.ts';

export interface KurrentDbEventStoreOptions {
  /** A KurrentDB connection string: `kurrentdb://host:2113?tls=false` (or `esdb://…`, `kurrentdb+discover://…` for a cluster). */
  connectionString: string;
  /**
   * The PostgreSQL database whose `keystore` holds the members' keys (the read models' database):
   * personal data is sealed before it is appended and opened as it is read. Without it events are
   * stored as given (a test of the log alone).
   */
  keystoreUrl?: string;
  /** How long a claim on an idempotency key holds before another caller may take it over (default 30 s). */
  claimLeaseMs?: number;
}

/** An event as the log keeps it (personal data opened, not upcast), for `forumctl export` and `import`. */
export interface StoredEvent {
  readonly streamId: string;
  readonly streamVersion: number;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
  readonly recordedAt: Date;
}

/** The KurrentDB store: the port, plus the whole-log reads and writes of `forumctl export` and `import`. */
export interface KurrentDbEventStore extends EventStore {
  /** At most `limit` events after `after`, as stored (not upcast), personal data opened or "[erased]". */
  exportPage(after: LogPosition, limit: number): Promise<{ position: LogPosition; event: StoredEvent }[]>;
  /** Appends exported events in their order, each stream at the version it had; sealed again, erasures erased again. */
  importEvents(events: readonly StoredEvent[]): Promise<void>;
}

type Raw = Omit<RecordedEvent, 'data'> & { data: unknown };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The event-store port on KurrentDB through `@kurrent/kurrentdb-client` (docs/kurrentdb.md says
 * what it guarantees beside the PostgreSQL store). Appends to one stream use `appendToStream`
 * with the expected revision; appends to several streams, and every idempotent append, one atomic
 * `multiStreamAppend` (KurrentDB 25.1 or later). The global log is `$all`, filtered on the server
 * to the forum's event types (filters.ts); a subscription is KurrentDB's catch-up subscription,
 * which reads from its position and goes live at the head.
 */
export async function createKurrentDbEventStore(options: KurrentDbEventStoreOptions): Promise<KurrentDbEventStore> {
  const client = KurrentDBClient.connectionString(options.connectionString);
  const keystore: Keystore | null = options.keystoreUrl ? await openKeystore(options.keystoreUrl) : null;
  const leaseMs = options.claimLeaseMs ?? 30_000;

  // ---- from the client's events to the port's ---------------------------------------------------

  function toRaw(event: KurrentRecordedEvent): Raw {
    const data: unknown = event.isJson ? event.data : JSON.parse(Buffer.from(event.data).toString('utf8'));
    const { metadata, recordedAt } = decodeMetadata(event.metadata, event.created);
    // stream reads carry the $all position on KurrentDB 22.6 and later
    const position = event.position ? toLogPosition(event.position) : START;
    return { streamId: event.streamId, streamVersion: versionOf(event.revision), type: event.type, data, metadata, position, recordedAt };
  }

  /** Opens (sealed boxes come first: a box holds the fields of the version it was sealed at), then upcasts. */
  async function toRecorded(raws: readonly Raw[], erasedAs: ErasedAs, opened?: readonly string[]): Promise<RecordedEvent[]> {
    const open = keystore ? await keystore.open(raws, erasedAs, opened ? (e) => opened.includes(e.type) : undefined) : raws;
    return open.map((event) => upcastOnRead(event as RecordedEvent));
  }

  async function readStreamRaw(streamId: string, fromRevision: bigint, maxCount?: number): Promise<KurrentRecordedEvent[]> {
    const events: KurrentRecordedEvent[] = [];
    try {
      for await (const resolved of client.readStream(streamId, { fromRevision, ...(maxCount !== undefined && { maxCount }) }))
        if (resolved.event) events.push(resolved.event);
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  /** The forum's events of `$all` after `after`, at most `limit`. */
  async function readLogRaw(after: LogPosition, limit: number): Promise<Raw[]> {
    const events: Raw[] = [];
    if (limit <= 0) return events;
    // the read starts at `after` itself (inclusive): one more, and the event at `after` dropped
    for await (const resolved of client.readAll({ fromPosition: readFrom(after), maxCount: limit + 1, filter: logFilter() })) {
      if (!resolved.event) continue;
      const raw = toRaw(resolved.event);
      if (compareLogPositions(raw.position, after) <= 0) continue;
      events.push(raw);
      if (events.length >= limit) break;
    }
    return events;
  }

  // ---- writes -------------------------------------------------------------------------------------

  const toEventData = (event: NewEvent, id: string, recordedAt?: Date): EventData =>
    jsonEvent({ id, type: event.type, data: event.data as Record<string, unknown>, metadata: encodeMetadata(event.metadata, recordedAt) });

  /** The position of a stream's event at `revision`, read back (a multi-stream append answers only its commit). */
  async function positionAt(streamId: string, revision: bigint, fallback: bigint): Promise<LogPosition> {
    const [event] = await readStreamRaw(streamId, revision, 1);
    return event?.position ? toLogPosition(event.position) : { transactionId: fallback, globalPosition: fallback };
  }

  /**
   * Writes `appends` (those with events) in one atomic write: `appendToStream` for one stream,
   * `multiStreamAppend` for several or when `first` (an idempotency key's event) goes with them.
   */
  async function write(appends: readonly StreamAppend[], idempotency?: { key: string; first: AppendStreamRequest }): Promise<AppendResult> {
    const writes = appends.filter((a) => a.events.length > 0);
    if (writes.length === 0) throw new Error('An append needs at least one event');
    const events = writes.flatMap((a) => a.events);
    const sealed = keystore ? await Promise.all(writes.map(async (a) => ({ ...a, events: await keystore.seal(a.events) }))) : writes;
    await keystore?.erase(events);
    const data = (append: StreamAppend) => append.events.map((event, i) => toEventData(event, eventId(idempotency?.key, append.streamId, i)));
    let result: AppendResult;
    try {
      if (writes.length === 1 && !idempotency) {
        const [append] = sealed;
        const written = await client.appendToStream(append!.streamId, data(append!), { streamState: toStreamState(append!.expectedVersion) });
        const version = Number(written.nextExpectedRevision) + 1;
        const lastPosition = written.position ? toLogPosition(written.position) : await positionAt(append!.streamId, written.nextExpectedRevision, 0n);
        result = { versions: { [append!.streamId]: version }, lastPosition };
      } else {
        const requests: AppendStreamRequest[] = sealed.map((append) => ({
          streamName: append.streamId,
          expectedState: toStreamState(append.expectedVersion),
          events: data(append),
        }));
        // the key's event first: the last event of the write is the command's, whose position the answer gives
        const written = await client.multiStreamAppend(idempotency ? [idempotency.first, ...requests] : requests);
        const versions: Record<string, number> = {};
        for (const { streamName, revision } of written.responses)
          if (!idempotency || streamName !== idempotency.first.streamName) versions[streamName] = Number(revision) + 1;
        const last = sealed.at(-1)!.streamId;
        result = { versions, lastPosition: await positionAt(last, BigInt(versions[last]! - 1), written.position) };
      }
    } catch (error) {
      // a conflict on the key's stream names it (its expectation: the claim's version), so the caller tells the two apart
      const key = idempotency && { streamId: idempotency.first.streamName, expectedVersion: versionOf(idempotency.first.expectedState as bigint) };
      throw toPortError(error, key ? [...writes, key] : writes);
    }
    await keystore?.erased(events, result.lastPosition.globalPosition);
    return result;
  }

  // ---- idempotency keys (idempotency.ts) --------------------------------------------------------

  async function readKey(stream: string) {
    const events = await readStreamRaw(stream, 0n);
    return keyState(events.map((e) => ({ type: e.type, data: e.data, revision: e.revision })));
  }

  const keyEvent = (type: string, data: Record<string, unknown>) => jsonEvent({ type, data });

  async function appendIdempotent<Answer>(appends: readonly StreamAppend[], idempotency: IdempotentAppend<Answer>): Promise<AppendOutcome<Answer>> {
    const stream = keyStream(idempotency.key);
    const owner = newOwner();
    let waitedMs = 0;
    let pause = 5;
    const wait = async () => {
      await sleep(pause);
      waitedMs += pause;
      pause = Math.min(pause * 2, 200);
    };
    for (;;) {
      const key = await readKey(stream);
      if (key.state === 'answered') return { duplicate: true, answer: key.answer as Answer };
      if (key.state === 'committed') {
        // its writer is writing the answer; one that died between the two leaves the key in doubt
        if (waitedMs > leaseMs) throw new IdempotencyKeyInDoubtError(idempotency.key);
        await wait();
        continue;
      }
      if (key.state === 'claimed' && key.until > Date.now()) {
        await wait();
        continue;
      }
      // free, or a claim whose lease ran out: claim it at the stream's next revision
      let claim: bigint;
      try {
        const claimed = await client.appendToStream(stream, keyEvent(CLAIMED, { owner, until: Date.now() + leaseMs }), {
          streamState: key.revision ?? NO_STREAM,
        });
        claim = claimed.nextExpectedRevision;
      } catch (error) {
        if (error instanceof KurrentConflict) continue; // another caller claimed it first
        throw error;
      }
      const release = () => client.appendToStream(stream, keyEvent(RELEASED, { owner }), { streamState: claim }).catch(() => {});
      try {
        await idempotency.beforeAppend?.();
      } catch (error) {
        await release();
        throw error;
      }
      let result: AppendResult;
      try {
        result = await write(appends, { key: idempotency.key, first: { streamName: stream, expectedState: claim, events: [keyEvent(COMMITTED, { owner })] } });
      } catch (error) {
        // the key's own expectation failed: the lease was taken over, and its taker writes; wait for its answer
        if (error instanceof Error && 'streamId' in error && error.streamId === stream) continue;
        await release();
        throw error;
      }
      const answer = idempotency.answer(result);
      await client.appendToStream(stream, keyEvent(ANSWERED, { owner, answer: answer }), { streamState: claim + 1n });
      return { duplicate: false, result, answer };
    }
  }

  // ---- the port -----------------------------------------------------------------------------------

  const store: KurrentDbEventStore = {
    append: (appends) => write(appends),

    appendIdempotent,

    async idempotentAnswer<Answer>(key: string): Promise<Answer | null> {
      const state = await readKey(keyStream(key));
      return state.state === 'answered' ? (state.answer as Answer) : null;
    },

    async readStream(streamId, options = {}): Promise<StreamRead> {
      const after = options.afterVersion ?? 0;
      const raws = (await readStreamRaw(streamId, BigInt(after), options.maxCount)).map(toRaw);
      const events = await toRecorded(raws, options.erasedAs ?? 'placeholder');
      return { version: events.at(-1)?.streamVersion ?? after, events };
    },

    async readAll(after, limit, readOptions = {}) {
      return toRecorded(await readLogRaw(after, limit), 'placeholder', readOptions.open);
    },

    /**
     * KurrentDB has no index by actor or by the post an event names: the history is `$all` read
     * forward from `after` (server-filtered to the forum's types) and selected here, so a page
     * costs a read of the log up to its last event. Fine for the console's occasional look at a
     * forum of modest size; docs/kurrentdb.md says what a large one needs.
     */
    async readHistory(selection, { after, limit, erasedAs = 'placeholder' }) {
      const selected = selectedBy(selection);
      const picked: Raw[] = [];
      let from = after;
      while (picked.length < limit) {
        const page = await readLogRaw(from, 1000);
        picked.push(...page.filter(selected).slice(0, limit - picked.length));
        if (page.length < 1000) break;
        from = page.at(-1)!.position;
      }
      return toRecorded(picked, erasedAs);
    },

    async head() {
      for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, filter: logFilter() })) {
        if (resolved.event) return toLogPosition(resolved.event.position);
      }
      return START;
    },

    subscribe(subscribeOptions): Subscription {
      return catchUp(subscribeOptions);
    },

    async exportPage(after, limit) {
      const raws = await readLogRaw(after, limit);
      const opened = keystore ? await keystore.open(raws, 'marked') : raws;
      return opened.map((e) => ({
        position: e.position,
        event: { streamId: e.streamId, streamVersion: e.streamVersion, type: e.type, data: e.data, metadata: e.metadata, recordedAt: e.recordedAt },
      }));
    },

    async importEvents(events) {
      // consecutive events of one stream go in one append, at the version the first had before it
      for (let i = 0; i < events.length;) {
        let j = i + 1;
        while (j < events.length && events[j]!.streamId === events[i]!.streamId && events[j]!.streamVersion === events[j - 1]!.streamVersion + 1) j++;
        const run = events.slice(i, j);
        const first = run[0]!;
        const sealed = keystore ? await keystore.seal(run) : run;
        await keystore?.erase(run);
        try {
          const written = await client.appendToStream(
            first.streamId,
            sealed.map((event, k) => toEventData(event, eventId(undefined, first.streamId, k), run[k]!.recordedAt)),
            { streamState: toStreamState(first.streamVersion - 1) },
          );
          if (written.position) await keystore?.erased(run, written.position.prepare);
        } catch (error) {
          throw toPortError(error, [{ streamId: first.streamId, expectedVersion: first.streamVersion - 1 }]);
        }
        i = j;
      }
    },

    async close() {
      await client.dispose();
      await keystore?.close();
    },
  };

  /**
   * A catch-up subscription to `$all` from `after`, filtered on the server: batches of the events
   * the server has sent so far (up to `batchSize`), each handed over once the previous one is
   * handled. A dropped connection subscribes again from the last position handled; an error of
   * `onBatch` ends it (`done` rejects).
   */
  function catchUp(subscribeOptions: Parameters<EventStore['subscribe']>[0]): Subscription {
    const batchSize = subscribeOptions.batchSize ?? 500;
    const stopping = new AbortController();
    let current: ReturnType<typeof client.subscribeToAll> | null = null;
    class HandlerError extends Error {}
    const done = (async () => {
      let position = subscribeOptions.after;
      let backoff = 100;
      while (!stopping.signal.aborted) {
        const from: ReadPosition = readFrom(position);
        const subscription = client.subscribeToAll({ fromPosition: from, filter: logFilter() });
        current = subscription;
        try {
          const iterator: AsyncIterator<AllStreamResolvedEvent> = subscription[Symbol.asyncIterator]();
          for (;;) {
            const next = await iterator.next();
            if (next.done || stopping.signal.aborted) break;
            const batch = [next.value];
            while (batch.length < batchSize && subscription.readableLength > 0) {
              const more = await iterator.next();
              if (more.done) break;
              batch.push(more.value);
            }
            const raws = batch
              .flatMap((resolved) => (resolved.event ? [toRaw(resolved.event)] : []))
              .filter((e) => compareLogPositions(e.position, position) > 0);
            if (raws.length === 0) continue;
            const events = await toRecorded(raws, 'placeholder', subscribeOptions.open);
            try {
              await subscribeOptions.onBatch(events);
            } catch (error) {
              throw new HandlerError('a subscriber failed', { cause: error });
            }
            position = raws.at(-1)!.position;
            backoff = 100;
          }
        } catch (error) {
          if (error instanceof HandlerError) throw error.cause;
          if (stopping.signal.aborted) break;
          await sleep(backoff);
          backoff = Math.min(backoff * 2, 5_000);
        } finally {
          await subscription.unsubscribe().catch(() => {});
        }
      }
    })();
    done.catch(() => {});
    return {
      done,
      async stop() {
        stopping.abort();
        await current?.unsubscribe().catch(() => {});
        await done.catch(() => {});
      },
    };
  }

  return store;
}
