import { currentSchemaVersion, PERSONAL_DATA, PERSONAL_DATA_TYPES } from '@forum/contracts';
import type { RecordedEvent } from '@forum/eventstore';
import { testEventMetadata } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { SeenPositions } from './dedupe.ts';
import { FEED_HEADERS, feedMessage, type FeedEvent } from './message.ts';

const event = (type: string, data: unknown, schemaVersion = 1, position = 7n): RecordedEvent => ({
  streamId: 's-1',
  streamVersion: 3,
  type,
  data,
  metadata: testEventMetadata({ schemaVersion, correlationId: 'corr-1' }),
  position: { transactionId: 900n, globalPosition: position },
  recordedAt: new Date('2026-01-02T03:04:05.000Z'),
});

describe('feedMessage', () => {
  it("leaves a member's personal fields out even when the event came opened (a read shared with a projection)", () => {
    const message = feedMessage(
      event('ProfileUpdated', { userId: 'u1', changes: { name: 'Ann', photoURL: 'https://p.example/a.png' }, updatedAt: '2026-01-01T00:00:00.000Z' }, 2),
    );
    const value = JSON.parse(message.value) as FeedEvent;
    expect(value.data).toEqual({ userId: 'u1', changes: {}, updatedAt: '2026-01-01T00:00:00.000Z' });
    expect(value.withheld).toEqual(['changes.name', 'changes.photoURL']);
    expect(message.value).not.toContain('Ann');
  });

  it('knows the personal fields of the version every personal event type is read in', () => {
    for (const type of PERSONAL_DATA_TYPES) expect(PERSONAL_DATA[`${type}@${currentSchemaVersion(type)}`], type).toBeDefined();
  });

  it('keeps ids, times and the rest, and says where the event is in its headers', () => {
    const message = feedMessage(event('PostVoted', { postId: 'p', userId: 'u', vote: 'up' }));
    expect(message.key).toBe('s-1');
    expect(message.headers).toEqual({
      [FEED_HEADERS.type]: 'PostVoted',
      [FEED_HEADERS.schemaVersion]: '1',
      [FEED_HEADERS.position]: '900.7',
      [FEED_HEADERS.correlationId]: 'corr-1',
      [FEED_HEADERS.streamVersion]: '3',
    });
    // a traced command's event carries its trace as W3C's header
    const traceparent = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
    const traced = { ...event('PostVoted', {}), metadata: testEventMetadata({ traceparent }) };
    expect(feedMessage(traced).headers[FEED_HEADERS.traceparent]).toBe(traceparent);
    expect(JSON.parse(message.value)).toEqual({
      position: '900.7',
      streamId: 's-1',
      streamVersion: 3,
      type: 'PostVoted',
      schemaVersion: 1,
      recordedAt: '2026-01-02T03:04:05.000Z',
      metadata: testEventMetadata({ correlationId: 'corr-1' }),
      data: { postId: 'p', userId: 'u', vote: 'up' },
      withheld: [],
    });
  });
});

describe('SeenPositions (a consumer dropping duplicates by position)', () => {
  const at = (token: string) => new Map([[FEED_HEADERS.position, token]]);

  it('takes each position once per partition, and drops one at or below the last taken', () => {
    const seen = new SeenPositions();
    expect(['5.1', '5.2', '6.3'].map((p) => seen.firstTime('0', at(p)))).toEqual([true, true, true]);
    // the relay sent 5.2 and 6.3 again after a restart, then went on
    expect(['5.2', '6.3', '7.4'].map((p) => seen.firstTime('0', at(p)))).toEqual([false, false, true]);
    // another partition has its own order
    expect(seen.firstTime('1', at('5.2'))).toBe(true);
    // log order is by transaction first: 6.9 (an earlier transaction's later position) comes before 7.4
    expect(seen.firstTime('2', { [FEED_HEADERS.position]: '7.4' })).toBe(true);
    expect(seen.firstTime('2', { [FEED_HEADERS.position]: '6.9' })).toBe(false);
  });

  it('refuses a message without a position', () => {
    expect(() => new SeenPositions().firstTime('0', new Map())).toThrow(/forum-position/);
  });
});
