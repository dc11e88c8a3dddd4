import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { positionToken } from '@forum/contracts';
import { WrongExpectedVersionError, type AppendResult } from '../types.ts';
import { event, stream, type ContractSubject } from './support.ts';

/** Appends: expected versions and concurrent writers, several streams at once, idempotency keys. */
export function appendsContract({ store }: ContractSubject) {
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
      expect(results.filter((r) => r.status === 'rejected').every((r) => r.reason instanceof WrongExpectedVersionError)).toBe(true);
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
        ...many.map((id, i) =>
          store.append([{ streamId: id, expectedVersion: 'no_stream', events: Array.from({ length: 1 + (i % 3) }, (_, j) => event(`E${j}`)) }]),
        ),
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
      expect((await store.readStream(existing)).events.map((e) => [e.type, e.streamVersion])).toEqual([
        ['A', 1],
        ['B', 2],
        ['C', 3],
      ]);
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
      const beforeAppend = () => {
        runs++;
        return Promise.resolve();
      };
      await Promise.all(
        Array.from({ length: 8 }, () =>
          store.appendIdempotent([{ streamId: id, expectedVersion: 'any', events: [event('A')] }], { key, answer: () => 1, beforeAppend }),
        ),
      );
      expect(runs).toBe(1);
    });

    it('writes nothing and keeps the key free when beforeAppend throws', async () => {
      const id = stream();
      const key = `k-${randomUUID()}`;
      const refused = new Error('over the limit');
      await expect(
        store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }], {
          key,
          answer: () => 1,
          beforeAppend: () => Promise.reject(refused),
        }),
      ).rejects.toBe(refused);
      expect((await store.readStream(id)).version).toBe(0);
      expect(await store.idempotentAnswer(key)).toBeNull();
      const later = await store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }], { key, answer: () => 2 });
      expect(later).toMatchObject({ duplicate: false, answer: 2 });
    });

    describe("with the answer's position at a path (positionAt)", () => {
      const keyed = (key: string, caller: number) => ({
        key,
        answer: (r: AppendResult) => ({ reply: { id: 'x', caller, position: positionToken(r.lastPosition) } }),
        positionAt: ['reply', 'position'],
      });

      it("answers with its last event's position, and a retry with the same answer", async () => {
        const id = stream();
        const key = `k-${randomUUID()}`;
        const first = await store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('A'), event('B')] }], keyed(key, 1));
        const last = (await store.readStream(id)).events.at(-1)!.position;
        expect(first).toMatchObject({ duplicate: false, answer: { reply: { id: 'x', caller: 1, position: positionToken(last) } } });
        expect(first.duplicate || positionToken(first.result.lastPosition)).toBe(positionToken(last));
        const retry = await store.appendIdempotent([{ streamId: id, expectedVersion: 2, events: [event('C')] }], keyed(key, 2));
        expect(retry).toEqual({ duplicate: true, answer: first.answer });
        expect(await store.idempotentAnswer(key)).toEqual(first.answer);
        expect((await store.readStream(id)).version).toBe(2);
      });

      it('appends once when concurrent calls share a key, on one stream or on a new stream each', async () => {
        const id = stream();
        const key = `k-${randomUUID()}`;
        const oneStream = await Promise.all(
          Array.from({ length: 8 }, (_, i) => store.appendIdempotent([{ streamId: id, expectedVersion: 'any', events: [event('A')] }], keyed(key, i))),
        );
        expect(oneStream.filter((o) => !o.duplicate)).toHaveLength(1);
        expect(new Set(oneStream.map((o) => JSON.stringify(o.answer))).size).toBe(1);
        expect((await store.readStream(id)).version).toBe(1);

        const other = `k-${randomUUID()}`;
        const ids = Array.from({ length: 8 }, () => stream());
        const newStreams = await Promise.all(
          ids.map((own, i) => store.appendIdempotent([{ streamId: own, expectedVersion: 'no_stream', events: [event('A')] }], keyed(other, i))),
        );
        expect(newStreams.filter((o) => !o.duplicate)).toHaveLength(1);
        expect(new Set(newStreams.map((o) => JSON.stringify(o.answer))).size).toBe(1);
        const versions = await Promise.all(ids.map(async (own) => (await store.readStream(own)).version));
        expect(versions.filter((v) => v === 1)).toHaveLength(1);
        expect(versions.filter((v) => v === 0)).toHaveLength(7);
      });

      it('keeps the key free when the expectation fails, and leaves an answer without a position as it is', async () => {
        const id = stream();
        const key = `k-${randomUUID()}`;
        await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }]);
        await expect(store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('B')] }], keyed(key, 1))).rejects.toBeInstanceOf(
          WrongExpectedVersionError,
        );
        expect(await store.idempotentAnswer(key)).toBeNull();
        const plain = await store.appendIdempotent([{ streamId: id, expectedVersion: 1, events: [event('B')] }], {
          key,
          answer: () => ({ reply: { done: true } }),
          positionAt: ['reply', 'position'],
        });
        expect(plain).toMatchObject({ duplicate: false, answer: { reply: { done: true } } });
        expect(await store.idempotentAnswer(key)).toEqual({ reply: { done: true } });
      });
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
}
