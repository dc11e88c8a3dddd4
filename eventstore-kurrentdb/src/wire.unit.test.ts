import { compareLogPositions, START } from '@forum/contracts';
import { WrongExpectedVersionError } from '@forum/eventstore';
import { AppError, EventStoreUrl } from '@forum/platform';
import { ANY, NO_STREAM, WrongExpectedVersionError as KurrentConflict } from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { logFilter, typesPattern } from './filters.ts';
import { ANSWERED, CLAIMED, COMMITTED, IdempotencyKeyInDoubtError, keyState, keyStream, RELEASED } from './idempotency.ts';
import { decodeMetadata, encodeMetadata, eventId, readFrom, toLogPosition, toPortError, toStreamState, versionOf } from './wire.ts';

/** What the KurrentDB adapter maps without a server: positions, versions, conflicts, metadata, ids, filters, key states. */
describe('positions', () => {
  it('maps commit to transactionId and prepare to globalPosition, so the port orders as $all does', () => {
    const positions = [
      { commit: 100n, prepare: 100n },
      { commit: 250n, prepare: 180n },
      { commit: 250n, prepare: 210n },
      { commit: 400n, prepare: 400n },
    ].map(toLogPosition);
    expect(positions[1]).toEqual({ transactionId: 250n, globalPosition: 180n });
    for (let i = 1; i < positions.length; i++) expect(compareLogPositions(positions[i - 1]!, positions[i]!)).toBeLessThan(0);
  });

  it('reads $all from the start for START and from the event itself otherwise', () => {
    expect(readFrom(START)).toBe('start');
    expect(readFrom({ transactionId: 250n, globalPosition: 180n })).toEqual({ commit: 250n, prepare: 180n });
  });
});

describe('expected versions and conflicts', () => {
  it('expects revision n - 1 for version n, and no stream for version 0', () => {
    expect(toStreamState('any')).toBe(ANY);
    expect(toStreamState('no_stream')).toBe(NO_STREAM);
    expect(toStreamState(0)).toBe(NO_STREAM);
    expect(toStreamState(1)).toBe(0n);
    expect(toStreamState(42)).toBe(41n);
  });

  it('counts a stream’s version from its last revision', () => {
    expect(versionOf(undefined)).toBe(0);
    expect(versionOf('no_stream')).toBe(0);
    expect(versionOf(0n)).toBe(1);
    expect(versionOf(9n)).toBe(10);
  });

  it('turns the client’s conflict into the port’s, naming the stream, its expectation and the version found', () => {
    const appends = [
      { streamId: 'user-1', expectedVersion: 3 as const },
      { streamId: 'post-1', expectedVersion: 'no_stream' as const },
    ];
    const onPost = toPortError(new KurrentConflict(undefined, { streamName: 'post-1', expected: 'no_stream', current: 4n }), appends);
    expect(onPost).toBeInstanceOf(WrongExpectedVersionError);
    expect(onPost).toMatchObject({ streamId: 'post-1', expected: 'no_stream', actual: 5 });
    expect(toPortError(new KurrentConflict(undefined, { streamName: 'user-1', expected: 2n, current: 'no_stream' }), appends)).toMatchObject({
      streamId: 'user-1',
      expected: 3,
      actual: 0,
    });
    const other = new Error('unavailable');
    expect(toPortError(other, appends)).toBe(other);
  });
});

describe('metadata', () => {
  const metadata = { actorId: 'user-1', correlationId: 'c-1', causationId: null, requestId: 'r-1', schemaVersion: 2 };

  it('is written as a JSON object of strings (what multiStreamAppend takes) and reads back as it was', () => {
    const wire = encodeMetadata(metadata);
    expect(wire).toEqual({ actorId: 'user-1', correlationId: 'c-1', requestId: 'r-1', schemaVersion: '2' });
    expect(Object.values(wire).every((value) => typeof value === 'string')).toBe(true);
    const created = new Date('2026-11-25T10:00:00.000Z');
    expect(decodeMetadata(wire, created)).toEqual({ metadata, recordedAt: created });
    expect(decodeMetadata({ ...wire, causationId: 'cmd-1', '$schema.format': 'Json' }, created).metadata).toEqual({ ...metadata, causationId: 'cmd-1' });
  });

  it('keeps the command’s trace (traceparent) when it has one, and reads back no value that is not one', () => {
    const traceparent = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
    const wire = encodeMetadata({ ...metadata, traceparent });
    expect(wire.traceparent).toBe(traceparent);
    expect(decodeMetadata(wire, new Date()).metadata).toEqual({ ...metadata, traceparent });
    expect(decodeMetadata({ ...wire, traceparent: 'zz-not-one' }, new Date()).metadata).toEqual(metadata);
  });

  it('keeps an imported event’s time in place of the time of the write', () => {
    const at = new Date('2025-01-02T03:04:05.678Z');
    const wire = encodeMetadata(metadata, at);
    expect(wire.recordedAt).toBe('2025-01-02T03:04:05.678Z');
    expect(decodeMetadata(wire, new Date()).recordedAt).toEqual(at);
  });

  it('reads metadata written by others (numbers, nothing at all) without failing', () => {
    const created = new Date();
    expect(decodeMetadata({ actorId: 'a', correlationId: 'c', schemaVersion: 3 }, created).metadata.schemaVersion).toBe(3);
    expect(decodeMetadata(undefined, created).metadata).toEqual({
      actorId: 'unknown',
      correlationId: 'unknown',
      causationId: null,
      requestId: null,
      schemaVersion: 1,
    });
  });
});

describe('event ids', () => {
  it('are random outside idempotent appends, and follow from key, stream and place inside them', () => {
    expect(eventId(undefined, 's', 0)).not.toBe(eventId(undefined, 's', 0));
    const id = eventId('k-1', 'post-1', 0);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(eventId('k-1', 'post-1', 0)).toBe(id);
    expect(new Set([id, eventId('k-1', 'post-1', 1), eventId('k-1', 'post-2', 0), eventId('k-2', 'post-1', 0)]).size).toBe(4);
  });
});

describe('filters of $all', () => {
  it('leaves out every type beginning with $ (the server’s and the adapter’s bookkeeping)', () => {
    const pattern = new RegExp(typesPattern());
    expect(['PostCreated', 'VoteCast'].every((type) => pattern.test(type))).toBe(true);
    expect(['$metadata', '$>', CLAIMED, COMMITTED, ANSWERED, RELEASED].some((type) => pattern.test(type))).toBe(false);
  });

  it('matches exactly the types asked for, escaped, and nothing for none', () => {
    const pattern = new RegExp(typesPattern(['PostCreated', 'Odd.Type', '$metadata']));
    expect(pattern.test('PostCreated')).toBe(true);
    expect(pattern.test('Odd.Type')).toBe(true);
    expect(pattern.test('PostCreatedLater')).toBe(false);
    expect(pattern.test('OddxType')).toBe(false);
    expect(pattern.test('$metadata')).toBe(false);
    expect(new RegExp(typesPattern([])).test('PostCreated')).toBe(false);
  });

  it('is an event-type filter for the client', () => {
    expect(logFilter(['VoteCast'])).toMatchObject({ filterOn: 'eventType', regex: '^(?:VoteCast)$' });
  });
});

describe('idempotency keys', () => {
  it('each have a stream of their own, named by a digest of the key', () => {
    expect(keyStream('user-1:abc')).toMatch(/^forum-idempotency-[0-9a-f]{64}$/);
    expect(keyStream('user-1:abc')).not.toBe(keyStream('user-2:abc'));
  });

  it('are free, claimed, committed or answered as their stream’s last event says', () => {
    const at = (type: string, revision: bigint, data: unknown = {}) => ({ type, revision, data });
    expect(keyState([])).toEqual({ state: 'free', revision: null });
    expect(keyState([at(CLAIMED, 0n, { until: 5 })])).toEqual({ state: 'claimed', revision: 0n, until: 5 });
    expect(keyState([at(CLAIMED, 0n, { until: 5 }), at(RELEASED, 1n)])).toEqual({ state: 'free', revision: 1n });
    expect(keyState([at(CLAIMED, 0n), at(RELEASED, 1n), at(CLAIMED, 2n, { until: 9 }), at(COMMITTED, 3n)])).toEqual({ state: 'committed', revision: 3n });
    expect(keyState([at(CLAIMED, 0n), at(COMMITTED, 1n), at(ANSWERED, 2n, { answer: { id: 'p-1' } })])).toEqual({
      state: 'answered',
      revision: 2n,
      answer: { id: 'p-1' },
    });
  });
});

describe('EVENTSTORE_URL', () => {
  it('takes KurrentDB’s connection strings and nothing else', () => {
    for (const url of ['kurrentdb://localhost:2113?tls=false', 'esdb://a:2113', 'kurrentdb+discover://cluster:2113', 'kdb://x:1'])
      expect(EventStoreUrl.safeParse(url).success).toBe(true);
    for (const url of ['postgres://u@h/db', 'http://localhost:2113', '']) expect(EventStoreUrl.safeParse(url).success).toBe(false);
  });
});

describe('a key in doubt', () => {
  it('is a 409 with its own stable code, not a 500: the request was carried out, its answer is what was lost', () => {
    const error = new IdempotencyKeyInDoubtError('k-1');
    expect(error).toBeInstanceOf(AppError);
    expect({ status: error.status, code: error.code }).toEqual({ status: 409, code: 'IDEMPOTENCY_KEY_IN_DOUBT' });
  });
});
