import { positionToken } from '@forum/contracts';
import type { AppendResult, StreamAppend } from '@forum/eventstore';
import { createMemoryEventStore } from '@forum/eventstore/memory';
import { testEventMetadata } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { execute } from './execute.ts';

const key = { key: 'the-key', fingerprint: 'the-request' };
const answer = (result: AppendResult | null) => ({ position: result ? positionToken(result.lastPosition) : null });
const tagged: StreamAppend = {
  streamId: 'tags',
  expectedVersion: 'any',
  events: [{ type: 'TagCreated', data: { tagId: 't', name: 'T', createdAt: '2026-11-29T00:00:00.000Z' }, metadata: testEventMetadata() }],
};

describe('execute with an Idempotency-Key', () => {
  it('answers the first answer to a request with the same key that decided after the first had appended (it saw nothing left to change)', async () => {
    const store = createMemoryEventStore();
    let firstDone!: () => void;
    const first = new Promise<void>((resolve) => (firstDone = resolve));
    // the second request checks the key before the first appends, and decides after it did: on that state the change is made already
    const second = execute(
      store,
      async () => {
        await first;
        return { appends: [], answer };
      },
      key,
    );
    const done = await execute(store, () => Promise.resolve({ appends: [tagged], answer }), key);
    firstDone();
    expect(done.answer.position).not.toBeNull();
    expect(await second).toEqual({ answer: done.answer, duplicate: true });
  });

  it('answers a decision that changes nothing as it is when no request holds the key', async () => {
    const store = createMemoryEventStore();
    expect(await execute(store, () => Promise.resolve({ appends: [], answer }), key)).toEqual({ answer: { position: null }, duplicate: false });
  });
});
