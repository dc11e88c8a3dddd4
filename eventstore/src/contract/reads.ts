import { randomUUID } from 'node:crypto';
import { compareLogPositions, START, type LogPosition } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import type { EventStore, NewEvent, RecordedEvent } from '../types.ts';
import { event, metadata, readAllUntil, sleep, stream, type ContractSubject } from './support.ts';

/** Reads: streams, the global log (never past a transaction that commits late), tallies and histories. */
export function readsContract({ store, factory }: ContractSubject) {
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
      expect(rest.events.map((e) => [e.type, e.streamVersion])).toEqual([
        ['B', 2],
        ['C', 3],
      ]);
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

    // Needs a transaction held open by the client (the commit hook); a store without client-side
    // transactions (KurrentDB: one writer, $all in commit order) cannot have one commit late
    it.runIf(factory.supportsCommitHook)('never skips an event whose transaction commits late', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let slowWritten!: () => void;
      const written = new Promise<void>((resolve) => (slowWritten = resolve));
      const slowStream = stream();
      const slowStore = await factory.create({
        beforeCommit: async (appends) => {
          if (!appends.some((a) => a.streamId === slowStream)) return;
          slowWritten();
          await held;
        },
      });
      try {
        const start = await store.head();
        // The slow writer writes first (it takes the older transaction id and position) and commits last:
        // the fast one starts once the slow one's events are written, however busy the machine
        const slow = slowStore.append([{ streamId: slowStream, expectedVersion: 'no_stream', events: [event('Slow')] }]);
        await written;
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
      const edited = (who: string, post: string) =>
        by(who, 'CommentEdited', {
          commentId: randomUUID(),
          postId: post,
          authorId: who,
          editorId: who,
          text: 'Edited',
          revision: 1,
          editedAt: new Date().toISOString(),
        });
      const vote = (who: string, post: string) =>
        by(who, 'VoteCast', { postId: post, userId: who, previous: 'none', vote: 'up', at: new Date().toISOString() });
      await store.append([{ streamId: elsewhere, expectedVersion: 'no_stream', events: [by(actor, 'A1'), by(someoneElse, 'X1')] }]);
      await store.append([{ streamId: own, expectedVersion: 'no_stream', events: [by(someoneElse, 'AboutThem'), by(actor, 'A2')] }]);
      await store.append([
        {
          streamId: mixed,
          expectedVersion: 'no_stream',
          events: [vote(someoneElse, postId), vote(actor, otherPost), by(someoneElse, 'PostAuthored', { postId }), edited(someoneElse, postId)],
        },
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
      expect((await historyOf({ postId }, 2)).map((e) => [e.type, e.metadata.actorId])).toEqual([
        ['VoteCast', someoneElse],
        ['CommentEdited', someoneElse],
      ]);
      expect(await store.readHistory({ actorId: `nobody-${randomUUID()}` }, { after: START, limit: 10 })).toEqual([]);
    });
  });

  it('starts from the beginning of the log with START', async () => {
    const all = await store.readAll(START, 5);
    expect(all.length).toBeGreaterThan(0);
  });
}
