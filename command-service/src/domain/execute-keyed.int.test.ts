import { randomUUID } from 'node:crypto';
import { positionToken } from '@forum/contracts';
import { createPostgresEventStore, type AppendResult, type EventStore } from '@forum/eventstore';
import { createTestDatabase, testEventMetadata } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute } from './execute.ts';
import type { Taken } from './limits.ts';

const database = await createTestDatabase('execute_keyed');
let store: EventStore;
beforeAll(async () => {
  store = await createPostgresEventStore({ connectionString: database.url, pollIntervalMs: 10_000, poolSize: 12 });
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

/** A comment-like command: a new stream of its own for each request, answered with its id and last event's position. */
const newComment = () => {
  const streamId = `comment-${randomUUID()}`;
  return () =>
    Promise.resolve({
      appends: [{ streamId, expectedVersion: 'no_stream' as const, events: [{ type: 'CommentAdded', data: { streamId }, metadata: testEventMetadata() }] }],
      answer: (result: AppendResult | null) => ({ id: streamId, ...(result && { position: positionToken(result.lastPosition) }) }),
    });
};

/** How many comment streams the log holds among `ids`. */
const written = async (answers: readonly { answer: { id: string } }[]) =>
  (await Promise.all([...new Set(answers.map((a) => a.answer.id))].map(async (id) => (await store.readStream(id)).version))).reduce((n, v) => n + v, 0);

describe('execute with an Idempotency-Key on PostgreSQL', () => {
  it('without a cost: 8 requests with one key at once append once, and all answer the first answer with its last event’s position', async () => {
    const key = { key: `k-${randomUUID()}`, fingerprint: 'the-request' };
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => execute(store, newComment(), key)));
    const first = outcomes.filter((o) => !o.duplicate);
    expect(first).toHaveLength(1);
    expect(outcomes.map((o) => o.answer)).toEqual(outcomes.map(() => first[0]!.answer));
    const stream = await store.readStream(first[0]!.answer.id);
    expect(first[0]!.answer.position).toBe(positionToken(stream.events.at(-1)!.position));
    expect(await written(outcomes)).toBe(1);
    // and later, the same again
    expect(await execute(store, newComment(), key)).toEqual({ answer: first[0]!.answer, duplicate: true });
  });

  it('with a cost: taken once the key is held, once for 8 requests at once; a replay takes nothing', async () => {
    const key = { key: `k-${randomUUID()}`, fingerprint: 'the-request' };
    let taken = 0;
    const cost = (): Promise<Taken> => {
      taken++;
      return Promise.resolve({ giveBack: () => Promise.resolve(void taken--) });
    };
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => execute(store, newComment(), key, cost)));
    expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(1);
    expect(new Set(outcomes.map((o) => JSON.stringify(o.answer))).size).toBe(1);
    expect(taken).toBe(1);
    expect(await written(outcomes)).toBe(1);
    await execute(store, newComment(), key, cost);
    expect(taken).toBe(1);
  });

  it('answers a key used for another request with IDEMPOTENCY_KEY_REUSED', async () => {
    const key = `k-${randomUUID()}`;
    await execute(store, newComment(), { key, fingerprint: 'one' });
    await expect(execute(store, newComment(), { key, fingerprint: 'another' })).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });
});
