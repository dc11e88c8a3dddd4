import {
  HEADER_MIN_POSITION,
  positionToken,
  START,
  UnknownSchemaVersionError,
  userStream,
  type CommentItem,
  type EventMetadata,
  type LogPosition,
  type Me,
  type PostDetail,
  type ProfileUpdatedV1,
} from '@forum/contracts';
import { notContaining } from '@forum/platform/testing';
import { projectionStatus } from '@forum/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';

/**
 * Schema evolution end to end: events stored by an older build (ProfileUpdated
 * v1, a full replacement) are read in the current shape (v2, only the changed
 * fields) by the command side and the projections alike; an event of a version
 * newer than this build is refused loudly, never mis-read.
 */
let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(() => forum?.stop());

const at = (position: LogPosition | string) => ({ [HEADER_MIN_POSITION]: typeof position === 'string' ? position : positionToken(position) });
const metadata = (actorId: string, schemaVersion: number): EventMetadata => ({
  actorId,
  correlationId: 'upcast-test',
  causationId: null,
  requestId: null,
  schemaVersion,
});

/** An event appended as a build writing `schemaVersion` would have: the data as given, stored as it is. */
async function appendAsOlderBuild(userId: string, data: unknown, schemaVersion: number) {
  const { version } = await forum.store.readStream(userStream(userId));
  const result = await forum.store.append([
    { streamId: userStream(userId), expectedVersion: version, events: [{ type: 'ProfileUpdated', data, metadata: metadata(userId, schemaVersion) }] },
  ]);
  return result.lastPosition;
}

describe('given a user whose stream holds a ProfileUpdated stored at v1 by an older build', () => {
  let user: { id: string; token: string };
  let postId: string;
  let v1At: LogPosition;
  const v1: ProfileUpdatedV1['data'] = { userId: '', name: 'Vera From V1', photoURL: 'https://img.example/v1.png', updatedAt: '2026-01-02T03:04:05.000Z' };

  beforeAll(async () => {
    user = await forum.newUser('Vera Original');
    await forum.register(user.token);
    const created = await expectStatus<{ id: string }>(
      forum.api('/api/posts', { method: 'POST', token: user.token, json: { title: 'Before v2', description: 'x', tags: [] } }),
      201,
    );
    postId = created.id;
    expect((await forum.api('/api/comments', { method: 'POST', token: user.token, json: { postId, text: 'my own comment' } })).status).toBe(201);
    v1.userId = user.id;
    v1At = await appendAsOlderBuild(user.id, v1, 1);
  });

  it('the row stays as stored (v1); readStream and readAll give it in the v2 shape with schemaVersion 2', async () => {
    // stored at v1, its personal fields sealed (docs/security/erasure.md): opened, the v1 data as written
    const { rows } = await forum.db.raw<{ rows: { data: unknown; metadata: EventMetadata; stored: string }[] }>(
      'SELECT eventstore.unseal(data) AS data, metadata, data::text AS stored FROM eventstore.events WHERE global_position = ?',
      [v1At.globalPosition.toString()],
    );
    expect(rows).toEqual([{ data: v1, metadata: metadata(user.id, 1), stored: notContaining('Vera From V1') }]);

    const v2 = { userId: user.id, changes: { name: 'Vera From V1', photoURL: 'https://img.example/v1.png' }, updatedAt: v1.updatedAt };
    const inStream = (await forum.store.readStream(userStream(user.id))).events.at(-1)!;
    expect(inStream).toMatchObject({ type: 'ProfileUpdated', position: v1At, data: v2, metadata: metadata(user.id, 2) });
    // readAll shows an event once no older transaction is open anywhere: look until it does
    let inLog;
    for (let i = 0; i < 100 && !inLog; i++) {
      inLog = (await forum.store.readAll(START, 100_000)).find((e) => e.position.globalPosition === v1At.globalPosition);
      if (!inLog) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(inLog).toMatchObject({ type: 'ProfileUpdated', data: v2, metadata: metadata(user.id, 2) });
  });

  it('the projections read it: GET /api/me, the post and the comment show the v1 name and photo', async () => {
    expect(await expectStatus<Me>(forum.api('/api/me', { token: user.token, headers: at(v1At) }))).toMatchObject({
      name: 'Vera From V1',
      photoURL: 'https://img.example/v1.png',
    });
    expect(await expectStatus<PostDetail>(forum.api(`/api/posts/${postId}`, { headers: at(v1At) }))).toMatchObject({
      authorName: 'Vera From V1',
      authorPhoto: 'https://img.example/v1.png',
    });
    expect(await expectStatus<CommentItem[]>(forum.api(`/api/comments/${postId}`, { headers: at(v1At) }))).toMatchObject([
      { authorName: 'Vera From V1', authorPhoto: 'https://img.example/v1.png' },
    ]);
  });

  it('the command side folds it: the v1 name counts as unchanged, and a PATCH of only the photo keeps it', async () => {
    // the decider knows the name from the v1 event: sending it again changes nothing
    const same = await forum.api('/api/me', { method: 'PATCH', token: user.token, json: { displayName: 'Vera From V1' } });
    expect(same.status).toBe(200);
    expect(same.headers.get('X-Event-Position')).toBeNull();

    const patched = await expectStatus<{ position: string }>(
      forum.api('/api/me', { method: 'PATCH', token: user.token, json: { photoURL: 'https://img.example/v2.png' } }),
    );
    const last = (await forum.store.readStream(userStream(user.id))).events.at(-1)!;
    expect(last).toMatchObject({ type: 'ProfileUpdated', data: { changes: { photoURL: 'https://img.example/v2.png' } }, metadata: { schemaVersion: 2 } });
    expect(last.data).not.toHaveProperty('changes.name');

    expect(await expectStatus<Me>(forum.api('/api/me', { token: user.token, headers: at(patched.position) }))).toMatchObject({
      name: 'Vera From V1',
      photoURL: 'https://img.example/v2.png',
    });
    expect(await expectStatus<PostDetail>(forum.api(`/api/posts/${postId}`, { headers: at(patched.position) }))).toMatchObject({
      authorName: 'Vera From V1',
      authorPhoto: 'https://img.example/v2.png',
    });
  });
});

// Last: it halts the read models of this test forum
describe('given an event of a schema version newer than this build knows (99)', () => {
  it('its reader fails with a clear error: commands on its stream fail, the projections that read it halt at it, the others go on', async () => {
    const user = await forum.newUser('Fay Future');
    await forum.register(user.token);
    const future = await appendAsOlderBuild(user.id, { userId: user.id, profile: { displayName: 'from the future' } }, 99);

    const read = (await forum.store.readStream(userStream(user.id))).events.at(-1)!;
    expect(read.metadata.schemaVersion).toBe(99);
    expect(() => read.data).toThrowError(UnknownSchemaVersionError);
    expect(() => read.data).toThrowError('ProfileUpdated has schemaVersion 99, this build reads up to 2');

    const patched = await forum.api('/api/me', { method: 'PATCH', token: user.token, json: { photoURL: 'https://img.example/f.png' } });
    expect(patched.status).toBe(500);
    expect((await forum.store.readStream(userStream(user.id))).events.at(-1)!.position).toEqual(future);

    const readers = ['users', 'posts', 'comments', 'announcements', 'audit'];
    let status = await projectionStatus(forum.db);
    for (let i = 0; i < 200 && status.filter((p) => readers.includes(p.name) && p.state === 'halted').length < readers.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await projectionStatus(forum.db);
    }
    for (const name of readers) {
      expect(
        status.find((p) => p.name === name),
        name,
      ).toMatchObject({ state: 'halted', failedPosition: positionToken(future) });
      expect(status.find((p) => p.name === name)!.error).toContain('schemaVersion 99');
    }
    // a projection that does not read ProfileUpdated passes it by
    for (let i = 0; i < 200 && status.find((p) => p.name === 'tags')!.lag > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await projectionStatus(forum.db);
    }
    expect(status.find((p) => p.name === 'tags')).toMatchObject({ state: 'live', lag: 0 });
  });
});
