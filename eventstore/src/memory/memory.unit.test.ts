import { randomUUID } from 'node:crypto';
import { START } from '@forum/contracts';
import { testEventMetadata } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { eventStoreContract } from '../contract.suite.ts';
import type { NewEvent, RecordedEvent } from '../types.ts';
import { MemoryEventLog } from './log.ts';
import { createMemoryEventStore } from './store.ts';

// every store the suite makes shares one log, as the PostgreSQL suite's stores share one database
let log = new MemoryEventLog();

eventStoreContract('in memory', {
  supportsCommitHook: true,
  create: (options) => Promise.resolve(createMemoryEventStore({ log, pollIntervalMs: 10_000, ...options })),
  dispose: () => {
    log = new MemoryEventLog();
    return Promise.resolve();
  },
});

const event = (type: string, data: unknown = {}): NewEvent => ({ type, data, metadata: testEventMetadata() });
const stream = () => `test-${randomUUID()}`;

/**
 * Whether `promise` has settled once everything that can run now has run: the store's calls wait
 * on nothing but each other (no timer, no I/O), so a call still pending then waits for another.
 */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('the in-memory store: subscriptions', () => {
  it('misses no commit that lands while a subscriber at the head goes to wait (it waits for none of its poll interval)', { timeout: 20_000 }, async () => {
    const store = createMemoryEventStore({ pollIntervalMs: 10_000 });
    const writers = Array.from({ length: 8 }, () => stream());
    const appends = 300;
    let seen = 0;
    let allSeen!: () => void;
    const seenAll = new Promise<void>((resolve) => (allSeen = resolve));
    const subscription = store.subscribe({
      after: START,
      batchSize: 50,
      onBatch: (events) => {
        seen += events.length;
        if (seen === writers.length * appends) allSeen();
        return Promise.resolve();
      },
    });
    try {
      await Promise.all(
        writers.map(async (streamId) => {
          for (let i = 0; i < appends; i++) await store.append([{ streamId, expectedVersion: i, events: [event('Tick', { i })] }]);
        }),
      );
      const written = Date.now();
      await seenAll;
      expect(Date.now() - written).toBeLessThan(2_000);
    } finally {
      await subscription.stop();
    }
  });
});

describe('the in-memory store: idempotency keys', () => {
  /** A promise and what settles it. */
  function gate() {
    let open!: () => void;
    let fail!: (error: Error) => void;
    const shut = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
    return { shut, open, fail };
  }

  it('makes a call with a key in use wait for the first, then answers it the first one’s answer without running its beforeAppend', async () => {
    const store = createMemoryEventStore();
    const [id, key] = [stream(), `k-${randomUUID()}`];
    const held = gate();
    const ran: string[] = [];
    const first = store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }], {
      key,
      answer: (result) => ({ by: 'first', at: new Date(0), version: result.versions[id] }),
      beforeAppend: async () => {
        ran.push('first');
        await held.shut;
      },
    });
    const second = store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }], {
      key,
      answer: () => ({ by: 'second' }),
      beforeAppend: () => {
        ran.push('second');
        return Promise.resolve();
      },
    });
    expect(await settled(second)).toBe(false);
    expect(await store.idempotentAnswer(key)).toBeNull();
    held.open();
    expect(await first).toMatchObject({ duplicate: false, answer: { by: 'first', at: new Date(0), version: 1 } });
    // the retry's answer is what was kept: the first answer's JSON
    expect(await second).toEqual({ duplicate: true, answer: { by: 'first', at: new Date(0).toISOString(), version: 1 } });
    expect(ran).toEqual(['first']);
    expect((await store.readStream(id)).version).toBe(1);
  });

  it('gives the key to a waiting call when the holder’s beforeAppend throws: it runs its own and appends', async () => {
    const store = createMemoryEventStore();
    const [id, key] = [stream(), `k-${randomUUID()}`];
    const held = gate();
    const refused = new Error('over the limit');
    const first = store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }], {
      key,
      answer: () => 'first',
      beforeAppend: () => held.shut,
    });
    let secondRan = false;
    const second = store.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('B')] }], {
      key,
      answer: () => 'second',
      beforeAppend: () => {
        secondRan = true;
        return Promise.resolve();
      },
    });
    expect(await settled(second)).toBe(false);
    held.fail(refused);
    await expect(first).rejects.toBe(refused);
    expect(await second).toMatchObject({ duplicate: false, answer: 'second' });
    expect(secondRan).toBe(true);
    expect((await store.readStream(id)).events.map((e) => e.type)).toEqual(['B']);
  });

  it('keeps the key and its answer with the events: neither is seen before the transaction commits', async () => {
    const log = new MemoryEventLog();
    const held = gate();
    const [id, key] = [stream(), `k-${randomUUID()}`];
    const slow = createMemoryEventStore({ log, beforeCommit: () => held.shut });
    const reader = createMemoryEventStore({ log });
    const appended = slow.appendIdempotent([{ streamId: id, expectedVersion: 'no_stream', events: [event('A')] }], { key, answer: () => 'done' });
    expect(await settled(appended)).toBe(false);
    expect(await reader.idempotentAnswer(key)).toBeNull();
    expect((await reader.readStream(id)).version).toBe(0);
    held.open();
    await appended;
    expect(await reader.idempotentAnswer(key)).toBe('done');
    expect((await reader.readStream(id)).version).toBe(1);
  });
});

describe('the in-memory store: transactions', () => {
  it('writes nothing of a transaction whose commit fails, and readers pass the place it held', async () => {
    const log = new MemoryEventLog();
    const failing = stream();
    const broken = createMemoryEventStore({
      log,
      beforeCommit: (appends) => (appends.some((a) => a.streamId === failing) ? Promise.reject(new Error('the commit failed')) : Promise.resolve()),
    });
    const store = createMemoryEventStore({ log });
    const after = stream();
    await expect(broken.append([{ streamId: failing, expectedVersion: 'no_stream', events: [event('Lost')] }])).rejects.toThrow('the commit failed');
    await store.append([{ streamId: after, expectedVersion: 'no_stream', events: [event('Kept')] }]);
    expect(await store.readStream(failing)).toEqual({ version: 0, events: [] });
    expect((await store.readAll(START, 100)).map((e) => e.type)).toEqual(['Kept']);
    // the stream is free again
    await store.append([{ streamId: failing, expectedVersion: 'no_stream', events: [event('Again')] }]);
    expect((await store.readStream(failing)).events.map((e) => e.type)).toEqual(['Again']);
  });

  it('hands out copies: what a reader does to an event changes nothing in the log', async () => {
    const store = createMemoryEventStore();
    const id = stream();
    await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('A', { list: [1] })] }]);
    const [read] = (await store.readStream(id)).events as RecordedEvent<string, { list: number[] }>[];
    read!.data.list.push(2);
    expect((await store.readStream(id)).events[0]!.data).toEqual({ list: [1] });
    expect((await store.readAll(START, 10))[0]!.data).toEqual({ list: [1] });
  });

  it('takes only a whole number of events for a read of the log', async () => {
    const store = createMemoryEventStore();
    await expect(store.readAll(START, 1.5)).rejects.toThrow(RangeError);
    await expect(store.readAll(START, -1)).rejects.toThrow(RangeError);
  });

  it('refuses every call once closed, while another store on its log goes on', async () => {
    const log = new MemoryEventLog();
    const [closed, open] = [createMemoryEventStore({ log }), createMemoryEventStore({ log })];
    await closed.close();
    await expect(closed.append([{ streamId: stream(), expectedVersion: 'any', events: [event('A')] }])).rejects.toThrow('closed');
    await expect(closed.readAll(START, 10)).rejects.toThrow('closed');
    await open.append([{ streamId: stream(), expectedVersion: 'any', events: [event('A')] }]);
    expect(await open.readAll(START, 10)).toHaveLength(1);
  });

  it('ends a subscription whose handler throws: `done` rejects with its error', async () => {
    const store = createMemoryEventStore();
    await store.append([{ streamId: stream(), expectedVersion: 'no_stream', events: [event('A')] }]);
    const poison = new Error('cannot handle it');
    const subscription = store.subscribe({ after: START, onBatch: () => Promise.reject(poison) });
    await expect(subscription.done).rejects.toBe(poison);
    await subscription.stop();
  });
});

describe('the in-memory store: what PostgreSQL cannot hold', () => {
  it('refuses U+0000 in any text and a lone surrogate in JSON, as the PostgreSQL store fails on them, and writes nothing', async () => {
    const store = createMemoryEventStore();
    const id = stream();
    const refused = [
      () => store.append([{ streamId: `${id}\u0000`, expectedVersion: 'any', events: [event('A')] }]),
      () => store.append([{ streamId: id, expectedVersion: 'any', events: [event('A\u0000')] }]),
      () => store.append([{ streamId: id, expectedVersion: 'any', events: [event('A', { text: 'a\u0000b' })] }]),
      () => store.append([{ streamId: id, expectedVersion: 'any', events: [{ ...event('A'), metadata: testEventMetadata({ requestId: 'r\u0000' }) }] }]),
      () => store.append([{ streamId: id, expectedVersion: 'any', events: [event('A', { text: 'a\ud800b' })] }]),
      () => store.append([{ streamId: id, expectedVersion: 'any', events: [event('A', { text: 'a\udc00b' })] }]),
      () => store.appendIdempotent([{ streamId: id, expectedVersion: 'any', events: [event('A')] }], { key: 'k\u0000', answer: () => 1 }),
      () => store.appendIdempotent([{ streamId: id, expectedVersion: 'any', events: [event('A')] }], { key: 'k', answer: () => ({ text: '\ud83d' }) }),
    ];
    for (const call of refused) await expect(call()).rejects.toThrow(/U\+0000|lone surrogate/);
    expect(await store.readStream(id)).toEqual({ version: 0, events: [] });
    expect(await store.idempotentAnswer('k')).toBeNull();
    // what looks like them but is not: an escaped "\u0000" and a surrogate pair
    await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('A', { text: 'a\\u0000b 😀' })] }]);
    expect((await store.readStream(id)).events[0]!.data).toEqual({ text: 'a\\u0000b 😀' });
  });
});
