import { DELETED_USER_NAME, ERASED_MARK, START, UnknownSchemaVersionError, userHistory, type EventMetadata } from '@forum/contracts';
import { FIXED_NOW, testEventMetadata, uuidOf } from '@forum/platform/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { ann, annPost, PLAINTEXT } from '../testing/personal-data.ts';
import type { EventStore, NewEvent, RecordedEvent } from '../types.ts';
import { MemoryEventLog } from './log.ts';
import { createMemoryEventStore } from './store.ts';

const at = FIXED_NOW;
const event = (type: string, data: unknown, metadata: Partial<EventMetadata> = {}): NewEvent => ({
  type,
  data,
  metadata: testEventMetadata({ actorId: ann.userId, ...metadata }),
});
const plainIn = (events: readonly RecordedEvent[]) => PLAINTEXT.filter((text) => JSON.stringify(events.map((e) => e.data)).includes(text));

const erasedPost = (n: number) => ({ ...annPost(n), authorName: DELETED_USER_NAME, authorEmail: '', authorPhoto: '' });
const markedPost = (n: number) => ({ ...annPost(n), authorName: ERASED_MARK, authorEmail: ERASED_MARK, authorPhoto: ERASED_MARK });

let store: EventStore;
beforeEach(async () => {
  store = createMemoryEventStore();
  await store.append([
    { streamId: `user-${ann.userId}`, expectedVersion: 'no_stream', events: [event('UserRegistered', { ...ann, registeredAt: at })] },
    { streamId: 'post-1', expectedVersion: 'no_stream', events: [event('PostCreated', annPost(1))] },
  ]);
});

describe('personal data in the in-memory store', () => {
  it('is kept sealed and opened for every reader', async () => {
    // a read of the log that opens no type gets the events as they are kept
    const kept = await store.readAll(START, 100, { open: [] });
    expect(plainIn(kept)).toEqual([]);
    expect(kept.find((e) => e.streamId === 'post-1')!.data).toMatchObject({
      postId: uuidOf(1),
      tags: ['General'],
      $sealed: [
        { s: ann.userId, k: 'identity' },
        { s: ann.userId, k: 'content' },
      ],
    });
    // opened: the stream, the log (for the types asked for) and a history
    expect((await store.readStream('post-1')).events[0]!.data).toEqual(annPost(1));
    const log = await store.readAll(START, 100, { open: ['PostCreated'] });
    expect(log.find((e) => e.streamId === 'post-1')!.data).toEqual(annPost(1));
    expect(plainIn(log.filter((e) => e.type === 'UserRegistered'))).toEqual([]);
    expect((await store.readHistory(userHistory(ann.userId), { after: START, limit: 10, erasedAs: 'marked' })).map((e) => e.data)).toEqual([
      annPost(1),
      { ...ann, registeredAt: at },
    ]);
  });

  it('reads as erased everywhere once an AccountErased keeping the content commits: the name, email and photo, not the text', async () => {
    await store.append([
      { streamId: `user-${ann.userId}`, expectedVersion: 1, events: [event('AccountErased', { userId: ann.userId, content: 'kept', erasedAt: at })] },
    ]);
    expect((await store.readStream('post-1')).events[0]!.data).toEqual(erasedPost(1));
    expect((await store.readStream('post-1', { erasedAs: 'marked' })).events[0]!.data).toEqual(markedPost(1));
    expect((await store.readAll(START, 100)).find((e) => e.streamId === 'post-1')!.data).toEqual(erasedPost(1));
    const history = await store.readHistory(userHistory(ann.userId), { after: START, limit: 10, erasedAs: 'marked' });
    // (one append writes its streams in the order of their ids)
    expect(history.map((e) => e.type)).toEqual(['PostCreated', 'UserRegistered', 'AccountErased']);
    expect(history[0]!.data).toEqual(markedPost(1));
    expect(history[1]!.data).toEqual({ userId: ann.userId, email: ERASED_MARK, name: ERASED_MARK, photoURL: ERASED_MARK, registeredAt: at });
    expect((await store.readHistory(userHistory(ann.userId), { after: history[0]!.position, limit: 1 }))[0]!.data).toMatchObject({
      email: '',
      name: DELETED_USER_NAME,
      photoURL: '',
    });
  });

  it('reads the text as erased too once the content goes, and what is written for the member afterwards as well', async () => {
    await store.append([
      { streamId: `user-${ann.userId}`, expectedVersion: 1, events: [event('AccountErased', { userId: ann.userId, content: 'erased', erasedAt: at })] },
    ]);
    const gone = { ...erasedPost(1), title: '', description: '' };
    expect((await store.readStream('post-1')).events[0]!.data).toEqual(gone);
    expect((await store.readAll(START, 100)).find((e) => e.streamId === 'post-1')!.data).toEqual(gone);
    expect((await store.readHistory({ streamIds: ['post-1'] }, { after: START, limit: 10 }))[0]!.data).toEqual(gone);
    // a command already in flight writes for them: sealed under a key that is never kept
    await store.append([{ streamId: 'post-2', expectedVersion: 'no_stream', events: [event('PostCreated', annPost(2))] }]);
    expect((await store.readStream('post-2')).events[0]!.data).toEqual({ ...erasedPost(2), title: '', description: '' });
    expect(plainIn(await store.readAll(START, 100))).toEqual([]);
  });

  it('is erased when the erasure commits, not before: a reader meanwhile still reads the member', async () => {
    const log = new MemoryEventLog();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const [writer, reader] = [createMemoryEventStore({ log, beforeCommit: () => held }), createMemoryEventStore({ log })];
    await reader.append([{ streamId: 'post-1', expectedVersion: 'no_stream', events: [event('PostCreated', annPost(1))] }]);
    const erasing = writer.append([
      { streamId: `user-${ann.userId}`, expectedVersion: 'any', events: [event('AccountErased', { userId: ann.userId, content: 'kept', erasedAt: at })] },
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await reader.readStream('post-1')).events[0]!.data).toEqual(annPost(1));
    release();
    await erasing;
    expect((await reader.readStream('post-1')).events[0]!.data).toEqual(erasedPost(1));
  });
});

describe('stored versions in the in-memory store', () => {
  it('reads an event stored at an older version in the current shape, opened at the version it was sealed at', async () => {
    const v1 = { userId: ann.userId, name: 'Ann Ö', photoURL: 'https://img.test/ann-face-2.png', updatedAt: at };
    await store.append([{ streamId: `user-${ann.userId}`, expectedVersion: 1, events: [event('ProfileUpdated', v1, { schemaVersion: 1 })] }]);
    expect(plainIn(await store.readAll(START, 100, { open: [] }))).toEqual([]);
    const [read] = (await store.readStream(`user-${ann.userId}`, { afterVersion: 1 })).events;
    expect(read!.data).toEqual({ userId: ann.userId, changes: { name: v1.name, photoURL: v1.photoURL }, updatedAt: at });
    expect(read!.metadata.schemaVersion).toBe(2);
    await store.append([
      { streamId: `user-${ann.userId}`, expectedVersion: 2, events: [event('AccountErased', { userId: ann.userId, content: 'kept', erasedAt: at })] },
    ]);
    expect((await store.readStream(`user-${ann.userId}`, { afterVersion: 1, maxCount: 1, erasedAs: 'marked' })).events[0]!.data).toEqual({
      userId: ann.userId,
      changes: { name: ERASED_MARK, photoURL: ERASED_MARK },
      updatedAt: at,
    });
  });

  it('delivers an event of a version newer than this build, whose data throws when it is read', async () => {
    await store.append([
      {
        streamId: 'user-later',
        expectedVersion: 'no_stream',
        events: [event('ProfileUpdated', { userId: 'later', changes: {}, updatedAt: at }, { schemaVersion: 3 })],
      },
    ]);
    const [later] = (await store.readStream('user-later')).events;
    expect(later!.metadata.schemaVersion).toBe(3);
    expect(() => later!.data).toThrow(UnknownSchemaVersionError);
  });
});
