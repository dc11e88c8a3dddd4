import { randomUUID } from 'node:crypto';
import { compareLogPositions, START, type EventMetadata, type LogPosition } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, NewEvent, RecordedEvent, StreamAppend } from './types.ts';
import { WrongExpectedVersionError } from './types.ts';

/**
 * What every event-store adapter must do. An adapter's test calls this with a
 * factory; `beforeCommit` runs inside each writing transaction before it
 * commits (an adapter without client-side transactions may ignore it, and then
 * says so with `supportsCommitHook: false`).
 */
export interface EventStoreFactory {
  create(options?: { beforeCommit?: (appends: readonly StreamAppend[]) => Promise<void> }): Promise<EventStore>;
  supportsCommitHook: boolean;
  dispose?(): Promise<void>;
}

const metadata = (overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  actorId: 'user-1',
  correlationId: randomUUID(),
  causationId: null,
  requestId: randomUUID(),
  schemaVersion: 1,
  ...overrides,
});

const event = (type: string, data: unknown = {}): NewEvent => ({ type, data, metadata: metadata() });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads the log until `done` holds. Readers see an event once no older
 * transaction is open anywhere on the server (the horizon is cluster-wide),
 * so a read right after a commit may briefly not show it yet.
 */
async function readAllUntil(store: EventStore, after: LogPosition, done: (events: RecordedEvent[]) => boolean): Promise<RecordedEvent[]> {
  let events: RecordedEvent[] = [];
  for (let i = 0; i < 200; i++) {
    events = await store.readAll(after, 10_000);
    if (done(events)) return events;
    await sleep(10);
  }
  return events;
}

export function eventStoreContract(adapter: string, factory: EventStoreFactory) {
  describe(`event store contract: ${adapter}`, () => {
    let store: EventStore;
    beforeAll(async () => {
      store = await factory.create();
    });
    afterAll(async () => {
      await store?.close();
      await factory.dispose?.();
    });
    const stream = () => `test-${randomUUID()}`;

    describe('append with an expected version', () => {
      it('creates a stream with no_stream and refuses a second no_stream', async () => {
        const id = stream();
        const result = await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('A'), event('B')] }]);
        expect(result.versions[id]).toBe(2);
        await expect(store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('C')] }])).rejects.toMatchObject({
          name: 'WrongExpectedVersionError',
          streamId: id,
          actual: 2,
        });
        expect((await store.readStream(id)).version).toBe(2);
      });

      it('appends at the expected version and refuses a stale one with a typed conflict', async () => {
        const id = stream();
        await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }]);
        await store.append([{ streamId: id, expectedVersion: 1, events: [event('B')] }]);
        const stale = store.append([{ streamId: id, expectedVersion: 1, events: [event('C')] }]);
        await expect(stale).rejects.toBeInstanceOf(WrongExpectedVersionError);
        await expect(stale).rejects.toMatchObject({ expected: 1, actual: 2 });
        await expect(store.append([{ streamId: stream(), expectedVersion: 3, events: [event('X')] }])).rejects.toMatchObject({ actual: 0 });
      });

      it('appends with any to new and existing streams', async () => {
        const id = stream();
        await store.append([{ streamId: id, expectedVersion: 'any', events: [event('A')] }]);
        const result = await store.append([{ streamId: id, expectedVersion: 'any', events: [event('B'), event('C')] }]);
        expect(result.versions[id]).toBe(3);
        expect((await store.readStream(id)).events.map((e) => [e.type, e.streamVersion])).toEqual([
          ['A', 1],
          ['B', 2],
          ['C', 3],
        ]);
      });

      it('lets exactly one of many concurrent writers at one version win', async () => {
        const id = stream();
        await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }]);
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) => store.append([{ streamId: id, expectedVersion: 1, events: [event(`W${i}`)] }])),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof WrongExpectedVersionError)).toBe(true);
        expect((await store.readStream(id)).version).toBe(2);
      });

      it('gives appends asked for at once each its own expectation: the stale, the taken and the doubled fail alone', async () => {
        const [existing, stale, taken, fresh, twice, any] = [stream(), stream(), stream(), stream(), stream(), stream()];
        for (const id of [existing, stale, taken]) await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }]);
        const many = Array.from({ length: 20 }, () => stream());
        const results = await Promise.allSettled([
          store.append([{ streamId: existing, expectedVersion: 1, events: [event('B'), event('C')] }]),
          store.append([{ streamId: stale, expectedVersion: 3, events: [event('B')] }]),
          store.append([{ streamId: taken, expectedVersion: 'no_stream', events: [event('B')] }]),
          store.append([{ streamId: fresh, expectedVersion: 'no_stream', events: [event('A'), event('B')] }]),
          store.append([{ streamId: twice, expectedVersion: 'no_stream', events: [event('first')] }]),
          store.append([{ streamId: twice, expectedVersion: 'no_stream', events: [event('second')] }]),
          store.append([{ streamId: any, expectedVersion: 'any', events: [event('A')] }]),
          ...many.map((id, i) => store.append([{ streamId: id, expectedVersion: 'no_stream', events: Array.from({ length: 1 + (i % 3) }, (_, j) => event(`E${j}`)) }])),
        ]);
        const [ok, staleResult, takenResult, freshResult, first, second, anyResult, ...rest] = results;
        expect(ok).toMatchObject({ status: 'fulfilled', value: { versions: { [existing]: 3 } } });
        expect(staleResult).toMatchObject({ status: 'rejected', reason: { name: 'WrongExpectedVersionError', streamId: stale, actual: 1 } });
        expect(takenResult).toMatchObject({ status: 'rejected', reason: { name: 'WrongExpectedVersionError', streamId: taken, actual: 1 } });
        expect(freshResult).toMatchObject({ status: 'fulfilled', value: { versions: { [fresh]: 2 } } });
        expect([first, second].map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
        expect(anyResult).toMatchObject({ status: 'fulfilled', value: { versions: { [any]: 1 } } });
        expect(rest.every((r, i) => r.status === 'fulfilled' && r.value.versions[many[i]!] === 1 + (i % 3))).toBe(true);
        // each stream holds what its own append said, in order; the failed ones are as they were
        expect((await store.readStream(existing)).events.map((e) => [e.type, e.streamVersion])).toEqual([['A', 1], ['B', 2], ['C', 3]]);
        expect((await store.readStream(stale)).version).toBe(1);
        expect((await store.readStream(taken)).events.map((e) => e.type)).toEqual(['A']);
        expect((await store.readStream(twice)).events).toHaveLength(1);
        for (const [i, id] of many.entries()) {
          const read = await store.readStream(id);
          expect(read.events.map((e) => e.type)).toEqual(Array.from({ length: 1 + (i % 3) }, (_, j) => `E${j}`));
          // in the log, a stream's events come in the order of its versions
          const positions = read.events.map((e) => e.position.globalPosition);
          expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
          expect(rest[i]).toMatchObject({ value: { lastPosition: read.events.at(-1)!.position } });
        }
      });
    });

    describe('several streams in one append', () => {
      it('appends to all of them atomically', async () => {
        const [a, b] = [stream(), stream()];
        const result = await store.append([
          { streamId: a, expectedVersion: 'no_stream', events: [event('A1')] },
          { streamId: b, expectedVersion: 'no_stream', events: [event('B1'), event('B2')] },
        ]);
        expect(result.versions).toEqual({ [a]: 1, [b]: 2 });
      });

      it('appends to none of them when one expectation fails', async () => {
        const [a, b] = [stream(), stream()];
        await store.append([{ streamId: b, expectedVersion: 'no_stream', events: [event('B1')] }]);
        await expect(
          store.append([
            { streamId: a, expectedVersion: 'no_stream', events: [event('A1')] },
            { streamId: b, expectedVersion: 'no_stream', events: [event('B2')] },
          ]),
        ).rejects.toMatchObject({ streamId: b });
        expect((await store.readStream(a)).events).toHaveLength(0);
        expect((await store.readStream(b)).version).toBe(1);
      });
    });

    describe('reads', () => {
      it('reads one stream in order with data and metadata', async () => {
        const id = stream();
        const meta = metadata({ actorId: 'alice', causationId: 'cmd-1', schemaVersion: 2 });
        await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [{ type: 'A', data: { n: 1, s: 'é' }, metadata: meta }, event('B')] }]);
        const read = await store.readStream(id);
        expect(read.version).toBe(2);
        expect(read.events[0]).toMatchObject({ streamId: id, streamVersion: 1, type: 'A', data: { n: 1, s: 'é' }, metadata: meta });
        expect(read.events[0]!.recordedAt).toBeInstanceOf(Date);
        expect(await store.readStream(stream())).toEqual({ version: 0, events: [] });
      });

      it('reads only the events after a version a reader has folded already', async () => {
        const id = stream();
        await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('A'), event('B'), event('C')] }]);
        const rest = await store.readStream(id, { afterVersion: 1 });
        expect(rest.version).toBe(3);
        expect(rest.events.map((e) => [e.type, e.streamVersion])).toEqual([['B', 2], ['C', 3]]);
        expect(await store.readStream(id, { afterVersion: 3 })).toEqual({ version: 3, events: [] });
      });

      it('reads at most `maxCount` events, from the start or after a version', async () => {
        const id = stream();
        await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('A'), event('B'), event('C'), event('D')] }]);
        const versions = async (options: { afterVersion?: number; maxCount: number }) => {
          const read = await store.readStream(id, options);
          return [read.version, read.events.map((e) => e.streamVersion)];
        };
        expect(await versions({ maxCount: 2 })).toEqual([2, [1, 2]]);
        expect(await versions({ afterVersion: 2, maxCount: 1 })).toEqual([3, [3]]);
        expect(await versions({ afterVersion: 3, maxCount: 10 })).toEqual([4, [4]]);
        expect(await versions({ afterVersion: 4, maxCount: 10 })).toEqual([4, []]);
        expect(await versions({ afterVersion: 2 ** 31 - 2, maxCount: 10 })).toEqual([2 ** 31 - 2, []]);
        const [capped, whole] = await Promise.all([store.readStream(id, { maxCount: 1 }), store.readStream(id)]);
        expect([capped.events.length, whole.events.length]).toEqual([1, 4]);
      });

      it('gives reads asked for at once each its own stream and version (the same stream twice, an unknown one)', async () => {
        const [a, b] = [stream(), stream()];
        await store.append([{ streamId: a, expectedVersion: 'no_stream', events: [event('A1'), event('A2'), event('A3')] }]);
        await store.append([{ streamId: b, expectedVersion: 'no_stream', events: [event('B1')] }]);
        const reads = await Promise.all([
          store.readStream(a),
          store.readStream(b),
          store.readStream(stream()),
          store.readStream(a, { afterVersion: 2 }),
          store.readStream(b, { afterVersion: 1 }),
        ]);
        expect(reads.map((read) => [read.version, read.events.map((e) => e.type)])).toEqual([
          [3, ['A1', 'A2', 'A3']],
          [1, ['B1']],
          [0, []],
          [3, ['A3']],
          [1, []],
        ]);
      });

      it('reads the global log after a position, in order', async () => {
        const before = await store.head();
        const id = stream();
        await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('A'), event('B')] }]);
        await store.append([{ streamId: id, expectedVersion: 2, events: [event('C')] }]);
        const read = (await readAllUntil(store, before, (all) => all.filter((e) => e.streamId === id).length >= 3)).filter((e) => e.streamId === id);
        expect(read.map((e) => e.type)).toEqual(['A', 'B', 'C']);
        for (let i = 1; i < read.length; i++) expect(compareLogPositions(read[i - 1]!.position, read[i]!.position)).toBeLessThan(0);
        const after = await store.readAll(read[1]!.position, 1000);
        expect(after.filter((e) => e.streamId === id).map((e) => e.type)).toEqual(['C']);
      });

      it('gives reads of the global log asked for at once each what it would read alone (the same read twice, other limits)', async () => {
        const before = await store.head();
        const id = stream();
        await store.append([{ streamId: id, expectedVersion: 'no_stream', events: ['A', 'B', 'C', 'D', 'E'].map((type) => event(type)) }]);
        const all = (await readAllUntil(store, before, (events) => events.filter((e) => e.streamId === id).length === 5)).filter((e) => e.streamId === id);
        const asked: [LogPosition, number][] = [
          [before, 1000],
          [all[1]!.position, 2],
          [before, 1000],
          [all[3]!.position, 1000],
          [all[4]!.position, 1000],
          [all[1]!.position, 1],
        ];
        const alone = [];
        for (const [after, limit] of asked) alone.push(await store.readAll(after, limit));
        const together = await Promise.all(asked.map(([after, limit]) => store.readAll(after, limit)));
        const mine = (events: readonly { streamId: string; type: string }[]) => events.filter((e) => e.streamId === id).map((e) => e.type);
        expect(together.map(mine)).toEqual(alone.map(mine));
        expect(together.map(mine)).toEqual([['A', 'B', 'C', 'D', 'E'], ['C', 'D'], ['A', 'B', 'C', 'D', 'E'], ['E'], [], ['C']]);
        // each read has its own array
        together[0]!.pop();
        expect(together[2]!.length).toBe(alone[2]!.length);
      });

      it.runIf(factory.supportsCommitHook)('never skips an event whose transaction commits late', async () => {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        const slowStream = stream();
        const slowStore = await factory.create({
          beforeCommit: async (appends) => {
            if (appends.some((a) => a.streamId === slowStream)) await held;
          },
        });
        try {
          const start = await store.head();
          // The slow writer starts first (it takes the older transaction id) and commits last
          const slow = slowStore.append([{ streamId: slowStream, expectedVersion: 'no_stream', events: [event('Slow')] }]);
          await sleep(100);
          const fastStream = stream();
          await store.append([{ streamId: fastStream, expectedVersion: 'no_stream', events: [event('Fast')] }]);
          // A reader now must not move past the slow transaction: the fast event waits behind it
          const whileHeld = await store.readAll(start, 1000);
          expect(whileHeld.map((e) => e.streamId)).not.toContain(fastStream);
          release();
          await slow;
          // both are committed now; readers see them once no older transaction is open
          let read: string[] = [];
          for (let i = 0; i < 100 && !(read.includes(slowStream) && read.includes(fastStream)); i++) {
            read = (await store.readAll(start, 1000)).map((e) => e.streamId);
            if (!read.includes(fastStream)) await sleep(20);
          }
          expect(read).toContain(slowStream);
          expect(read).toContain(fastStream);
          expect(read.indexOf(slowStream)).toBeLessThan(read.indexOf(fastStream));
        } finally {
          release();
          await slowStore.close();
        }
      });
    });

    describe('tally', () => {
      it('counts the events of some types up to a position in log order, with the sum of their positions', async (context) => {
        if (!store.tally) return context.skip('this adapter does not count its log');
        const [a, b] = [`A${randomUUID().slice(0, 8)}`, `B${randomUUID().slice(0, 8)}`];
        const start = await store.head();
        const id = stream();
        await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event(a), event(b), event(a), event(b)] }]);
        const read = (await readAllUntil(store, start, (all) => all.filter((e) => e.streamId === id).length >= 4)).filter((e) => e.streamId === id);
        const sum = (events: RecordedEvent[]) => events.reduce((total, e) => total + e.position.globalPosition, 0n);
        expect(await store.tally([a], read[1]!.position)).toEqual({ events: 1n, positions: sum([read[0]!]) });
        expect(await store.tally([a], read[3]!.position)).toEqual({ events: 2n, positions: sum([read[0]!, read[2]!]) });
        expect(await store.tally([a, b], read[3]!.position)).toEqual({ events: 4n, positions: sum(read) });
        expect(await store.tally([`none-${a}`], read[3]!.position)).toEqual({ events: 0n, positions: 0n });
      });
    });

    describe('idempotent appends', () => {
      it('appends once per key and returns the first answer to a retry', async () => {
        const id = stream();
        const key = `k-${randomUUID()}`;
        const first = await store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }], {
          key,
          answer: (r) => ({ version: r.versions[id], first: true }),
        });
        expect(first).toMatchObject({ duplicate: false, answer: { version: 1, first: true } });
        const retry = await store.appendIdempotent([{ streamId: id, expectedVersion: 'any', events: [event('A')] }], {
          key,
          answer: () => ({ first: false }),
        });
        expect(retry).toEqual({ duplicate: true, answer: { version: 1, first: true } });
        expect(await store.idempotentAnswer(key)).toEqual({ version: 1, first: true });
        expect((await store.readStream(id)).version).toBe(1);
      });

      it('appends once when concurrent calls share a key', async () => {
        const id = stream();
        const key = `k-${randomUUID()}`;
        const outcomes = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            store.appendIdempotent([{ streamId: id, expectedVersion: 'any', events: [event('A')] }], { key, answer: () => ({ caller: i }) }),
          ),
        );
        expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(1);
        expect(new Set(outcomes.map((o) => JSON.stringify(o.answer))).size).toBe(1);
        expect((await store.readStream(id)).version).toBe(1);
      });

      it('runs beforeAppend only in the call that holds the key: concurrent calls with one key run it once', async () => {
        const id = stream();
        const key = `k-${randomUUID()}`;
        let runs = 0;
        const beforeAppend = async () => {
          runs++;
        };
        await Promise.all(
          Array.from({ length: 8 }, () => store.appendIdempotent([{ streamId: id, expectedVersion: 'any', events: [event('A')] }], { key, answer: () => 1, beforeAppend })),
        );
        expect(runs).toBe(1);
      });

      it('writes nothing and keeps the key free when beforeAppend throws', async () => {
        const id = stream();
        const key = `k-${randomUUID()}`;
        const refused = new Error('over the limit');
        await expect(
          store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }], { key, answer: () => 1, beforeAppend: () => Promise.reject(refused) }),
        ).rejects.toBe(refused);
        expect((await store.readStream(id)).version).toBe(0);
        expect(await store.idempotentAnswer(key)).toBeNull();
        const later = await store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }], { key, answer: () => 2 });
        expect(later).toMatchObject({ duplicate: false, answer: 2 });
      });

      it('forgets a key whose append failed', async () => {
        const id = stream();
        const key = `k-${randomUUID()}`;
        await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }]);
        await expect(
          store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('B')] }], { key, answer: () => 1 }),
        ).rejects.toBeInstanceOf(WrongExpectedVersionError);
        expect(await store.idempotentAnswer(key)).toBeNull();
      });
    });

    describe('subscriptions', () => {
      it('is woken by a new event without waiting for its poll interval', async () => {
        const id = stream();
        const from = await store.head();
        const seen: RecordedEvent[] = [];
        let resolveSeen!: () => void;
        const gotIt = new Promise<void>((resolve) => (resolveSeen = resolve));
        const subscription = store.subscribe({
          after: from,
          onBatch: async (events) => {
            seen.push(...events.filter((e) => e.streamId === id));
            if (seen.length > 0) resolveSeen();
          },
        });
        try {
          await sleep(200); // the subscriber has caught up and sleeps
          const t0 = Date.now();
          await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('Ping')] }]);
          await gotIt;
          expect(seen.map((e) => e.type)).toEqual(['Ping']);
          expect(Date.now() - t0).toBeLessThan(500); // the poll interval in these tests is 10 s
        } finally {
          await subscription.stop();
        }
      });

      it.runIf(factory.supportsCommitHook)(
        'sees every event of 8 concurrent writers x 2,000 appends exactly once, in per-stream order',
        { timeout: 180_000 },
        async () => {
          const writers = 8;
          const appendsPerWriter = 2000;
          const runStreams = Array.from({ length: writers }, () => stream());
          const inRun = new Set(runStreams);
          const slowStore = await factory.create({
            // random short delays inside the writing transactions, so commits land out of position order
            beforeCommit: async () => {
              const r = Math.random();
              if (r < 0.3) await sleep(Math.floor(Math.random() * 3));
              else if (r < 0.32) await sleep(5 + Math.floor(Math.random() * 15));
            },
          });
          const from = await store.head();
          const seen = new Map<string, number[]>();
          const positions = new Set<string>();
          let total = 0;
          let duplicates = 0;
          let resolveAll!: () => void;
          const allSeen = new Promise<void>((resolve) => (resolveAll = resolve));
          const subscription = store.subscribe({
            after: from,
            batchSize: 250,
            onBatch: async (events) => {
              for (const e of events) {
                if (!inRun.has(e.streamId)) continue;
                const key = e.position.globalPosition.toString();
                if (positions.has(key)) duplicates++;
                positions.add(key);
                const versions = seen.get(e.streamId) ?? [];
                versions.push(e.streamVersion);
                seen.set(e.streamId, versions);
                total++;
              }
              if (total >= writers * appendsPerWriter) resolveAll();
            },
          });
          try {
            await Promise.all(
              runStreams.map(async (streamId) => {
                for (let i = 0; i < appendsPerWriter; i++) {
                  await slowStore.append([{ streamId, expectedVersion: i === 0 ? 'no_stream' : i, events: [event('Tick', { i })] }]);
                }
              }),
            );
            await Promise.race([allSeen, sleep(60_000)]);
            expect(duplicates).toBe(0);
            expect(total).toBe(writers * appendsPerWriter);
            for (const streamId of runStreams) {
              expect(seen.get(streamId)).toEqual(Array.from({ length: appendsPerWriter }, (_, i) => i + 1));
            }
          } finally {
            await subscription.stop();
            await slowStore.close();
          }
        },
      );
    });

    describe('histories (readHistory)', () => {
      const by = (actorId: string, type: string, data: unknown = {}): NewEvent => ({ type, data, metadata: metadata({ actorId }) });
      /** The history once it holds `count` events (an event shows once no older transaction is still running). */
      async function historyOf(selection: Parameters<EventStore['readHistory']>[0], count: number, after = START, limit = 100): Promise<RecordedEvent[]> {
        let events: RecordedEvent[] = [];
        for (let i = 0; i < 200 && events.length < count; i++) {
          if (i > 0) await sleep(10);
          events = await store.readHistory(selection, { after, limit });
        }
        return events;
      }

      it('#28.3 selects the events of an actor, of streams and about a post, each once, in log order, a page at a time', async () => {
        const [actor, someoneElse, postId, otherPost] = [`actor-${randomUUID()}`, `other-${randomUUID()}`, randomUUID(), randomUUID()];
        const [own, elsewhere, mixed] = [stream(), stream(), stream()];
        const vote = (who: string, post: string) => by(who, 'VoteCast', { postId: post, userId: who, previous: 'none', vote: 'up', at: new Date().toISOString() });
        await store.append([{ streamId: elsewhere, expectedVersion: 'no_stream', events: [by(actor, 'A1'), by(someoneElse, 'X1')] }]);
        await store.append([{ streamId: own, expectedVersion: 'no_stream', events: [by(someoneElse, 'AboutThem'), by(actor, 'A2')] }]);
        await store.append([
          { streamId: mixed, expectedVersion: 'no_stream', events: [vote(someoneElse, postId), vote(actor, otherPost), by(someoneElse, 'PostAuthored', { postId })] },
        ]);
        await store.append([{ streamId: elsewhere, expectedVersion: 2, events: [by(actor, 'A3'), by(someoneElse, 'X2')] }]);

        const selection = { actorId: actor, streamIds: [own] };
        const history = await historyOf(selection, 5);
        expect(history.map((e) => e.type)).toEqual(['A1', 'AboutThem', 'A2', 'VoteCast', 'A3']);
        expect(history.map((e) => e.position).every((p, i, all) => i === 0 || compareLogPositions(all[i - 1]!, p) < 0)).toBe(true);
        // a page starts after the position it is given
        const first = await store.readHistory(selection, { after: START, limit: 2 });
        expect(first.map((e) => e.type)).toEqual(['A1', 'AboutThem']);
        expect((await store.readHistory(selection, { after: first[1]!.position, limit: 2 })).map((e) => e.type)).toEqual(['A2', 'VoteCast']);
        expect(await store.readHistory(selection, { after: history.at(-1)!.position, limit: 2 })).toEqual([]);

        // about a post: the types of POST_HISTORY_TYPES that name it, not another type naming it
        expect((await historyOf({ postId }, 1)).map((e) => [e.type, e.metadata.actorId])).toEqual([['VoteCast', someoneElse]]);
        expect(await store.readHistory({ actorId: `nobody-${randomUUID()}` }, { after: START, limit: 10 })).toEqual([]);
      });
    });

    it('starts from the beginning of the log with START', async () => {
      const all = await store.readAll(START, 5);
      expect(all.length).toBeGreaterThan(0);
    });
  });
}
