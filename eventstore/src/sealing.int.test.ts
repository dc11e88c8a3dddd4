import { DELETED_USER_NAME, ERASED_MARK, START, type SubjectKey } from '@forum/contracts';
import { createTestDatabase, FIXED_NOW as at, testEventMetadata, uuidOf } from '@forum/platform/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from './postgres.ts';
import { migrateEventStore } from './schema.ts';
import { openData, sealData } from './sealed-box.ts';
import { SEAL_REWRITE } from './sealing-sql.ts';
import { ann, annPost, PLAINTEXT } from './testing/personal-data.ts';
import type { EventStore, LogReadOptions, NewEvent, RecordedEvent } from './types.ts';

/**
 * Personal data in the log (docs/security/erasure.md): sealed as it is written, opened as it is
 * read (by streams, by the global log and set-wise in SQL), erased for good by AccountErased, and
 * sealed in place, once, where it was stored before sealing existed.
 */
const database = await createTestDatabase('sealing');
let store: EventStore;
let client: pg.Client;
const meta = (schemaVersion = 1) => testEventMetadata({ actorId: 'u-ann', schemaVersion });

const event = (type: string, data: unknown, version = 1): NewEvent => ({ type, data, metadata: meta(version) });

beforeAll(async () => {
  store = await createPostgresEventStore({ connectionString: database.url, poolSize: 2 });
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await store?.close();
  await database.drop();
});

/** The raw rows of a stream, as the table holds them. */
const raw = async (streamId: string) =>
  (await client.query<{ data: string }>('SELECT data::text AS data FROM eventstore.events WHERE stream_id = $1 ORDER BY stream_version', [streamId])).rows.map(
    (r) => r.data,
  );

/** The events of `streamId` as the global log gives them, once every transaction before them has ended. */
async function fromLog(streamId: string, options?: LogReadOptions): Promise<RecordedEvent[]> {
  const head = await store.head();
  for (let tries = 0; tries < 200; tries++) {
    const events = await store.readAll(START, 10_000, options);
    if (events.at(-1)?.position.globalPosition === head.globalPosition) return events.filter((e) => e.streamId === streamId);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the log did not settle');
}

/** The events of `streamId` as a rebuild's staged replay reads them: the SQL relation of the whole log. */
async function fromSql(streamId: string, types: readonly string[]): Promise<unknown[]> {
  const log = store.sql!;
  const next = await log.nextRange(START, { limit: 100_000, types });
  if (!next) return [];
  const { sql, bindings } = log.events(next.range, types);
  let i = 0;
  const text = `SELECT data FROM ${sql.replaceAll(/\?/g, () => `$${++i}`)} e WHERE stream_id = $${++i} ORDER BY pos`;
  return (await client.query<{ data: unknown }>(text, [...bindings, streamId])).rows.map((r) => r.data);
}

describe('a PostCreated', () => {
  it('is stored with none of its personal fields in plain text, and every reader gets it whole', async () => {
    const post = annPost(1);
    await store.append([{ streamId: 'post-1', expectedVersion: 'no_stream', events: [event('PostCreated', post)] }]);
    const [stored] = await raw('post-1');
    for (const text of PLAINTEXT) expect(stored).not.toContain(text);
    expect(JSON.parse(stored!)).toMatchObject({
      postId: post.postId,
      authorId: ann.userId,
      tags: ['General'],
      $sealed: [
        { s: ann.userId, k: 'identity' },
        { s: ann.userId, k: 'content' },
      ],
    });
    expect((await store.readStream('post-1')).events[0]!.data).toEqual(post);
    expect((await store.readStream('post-1', { erasedAs: 'marked' })).events[0]!.data).toEqual(post);
    expect((await fromLog('post-1'))[0]!.data).toEqual(post);
    expect(await fromSql('post-1', ['PostCreated'])).toEqual([post]);
  });
});

describe('the global log', () => {
  const comment = {
    commentId: uuidOf(901),
    postId: uuidOf(900),
    text: "Ann's private comment",
    authorId: ann.userId,
    authorName: ann.name,
    authorEmail: ann.email,
    authorPhoto: ann.photoURL,
    createdAt: at,
  };
  const plainIn = (events: readonly RecordedEvent[]) =>
    PLAINTEXT.concat('private comment').filter((text) => JSON.stringify(events.map((e) => e.data)).includes(text));

  it('opens the personal data of the types a reader asks for, and may leave the others sealed', async () => {
    const post = { ...annPost(900), postId: uuidOf(900) };
    await store.append([{ streamId: 'post-900', expectedVersion: 'no_stream', events: [event('PostCreated', post)] }]);
    await store.append([{ streamId: 'comment-901', expectedVersion: 'no_stream', events: [event('CommentAdded', comment)] }]);

    const [openedComment] = await fromLog('comment-901', { open: ['CommentAdded'] });
    expect(openedComment!.data).toEqual(comment);
    const [sealedPost] = await fromLog('post-900', { open: ['CommentAdded'] });
    expect(sealedPost!.data).toMatchObject({
      postId: post.postId,
      tags: ['General'],
      $sealed: [
        { s: ann.userId, k: 'identity' },
        { s: ann.userId, k: 'content' },
      ],
    });
    expect(plainIn([sealedPost!])).toEqual([]);
    // opening nothing: ids and the rest, never a name, an email, a photo or a text
    const none = [...(await fromLog('post-900', { open: [] })), ...(await fromLog('comment-901', { open: [] }))];
    expect(none.map((e) => (e.data as { postId: string }).postId)).toEqual([post.postId, post.postId]);
    expect(plainIn(none)).toEqual([]);
    // every type when none is named
    expect((await fromLog('post-900'))[0]!.data).toEqual(post);
  });

  it('answers reads of one moment that open different types each with its own types opened', async () => {
    await store.head();
    const [forPosts, forComments] = await Promise.all([
      store.readAll(START, 10_000, { open: ['PostCreated'] }),
      store.readAll(START, 10_000, { open: ['CommentAdded'] }),
    ]);
    expect(forPosts.find((e) => e.streamId === 'post-900')!.data).toEqual({ ...annPost(900), postId: uuidOf(900) });
    expect(forComments.find((e) => e.streamId === 'comment-901')!.data).toEqual(comment);
  });
});

describe('AccountErased', () => {
  it('with the content kept: the identity reads as erased everywhere, the text stays', async () => {
    const bo = { ...annPost(2), authorId: 'u-bo', authorName: 'Bo Kestrel', authorEmail: 'bo@forum.test', authorPhoto: '' };
    await store.append([
      {
        streamId: 'user-u-bo',
        expectedVersion: 'no_stream',
        events: [event('UserRegistered', { userId: 'u-bo', email: 'bo@forum.test', name: 'Bo Kestrel', photoURL: '', registeredAt: at })],
      },
      { streamId: 'post-2', expectedVersion: 'no_stream', events: [event('PostCreated', bo)] },
    ]);
    await store.append([{ streamId: 'user-u-bo', expectedVersion: 1, events: [event('AccountErased', { userId: 'u-bo', content: 'kept', erasedAt: at })] }]);
    const placeholders = { ...bo, authorName: DELETED_USER_NAME, authorEmail: '', authorPhoto: '' };
    expect((await store.readStream('post-2')).events[0]!.data).toEqual(placeholders);
    expect((await fromLog('post-2'))[0]!.data).toEqual(placeholders);
    expect(await fromSql('post-2', ['PostCreated'])).toEqual([placeholders]);
    expect((await store.readStream('post-2', { erasedAs: 'marked' })).events[0]!.data).toEqual({
      ...bo,
      authorName: ERASED_MARK,
      authorEmail: ERASED_MARK,
      authorPhoto: ERASED_MARK,
    });
    expect((await store.readStream('user-u-bo', { erasedAs: 'marked' })).events[0]!.data).toMatchObject({
      email: ERASED_MARK,
      name: ERASED_MARK,
      photoURL: ERASED_MARK,
    });
    const keys = await client.query<{ kind: string }>(`SELECT kind FROM keystore.subject_keys WHERE subject = 'u-bo'`);
    expect(keys.rows.map((r) => r.kind)).toEqual(['content']);
    const erasure = await client.query(`SELECT content_erased, realm_removed_at FROM keystore.erasures WHERE subject = 'u-bo'`);
    expect(erasure.rows).toEqual([{ content_erased: false, realm_removed_at: null }]);
  });

  it('with the content erased: the text reads as erased too, and no key of theirs is left', async () => {
    const cy = { ...annPost(3), authorId: 'u-cy', authorName: 'Cy', authorEmail: 'cy@forum.test', authorPhoto: '' };
    await store.append([{ streamId: 'post-3', expectedVersion: 'no_stream', events: [event('PostCreated', cy)] }]);
    await store.append([
      { streamId: 'user-u-cy', expectedVersion: 'no_stream', events: [event('AccountErased', { userId: 'u-cy', content: 'erased', erasedAt: at })] },
    ]);
    expect((await store.readStream('post-3')).events[0]!.data).toEqual({
      ...cy,
      authorName: DELETED_USER_NAME,
      authorEmail: '',
      authorPhoto: '',
      title: '',
      description: '',
    });
    expect((await client.query(`SELECT 1 FROM keystore.subject_keys WHERE subject = 'u-cy'`)).rowCount).toBe(0);
    // what is written for them afterwards (a command already in flight) is sealed with a key that is never kept
    await store.append([{ streamId: 'post-4', expectedVersion: 'no_stream', events: [event('PostCreated', { ...cy, postId: uuidOf(4) })] }]);
    expect((await store.readStream('post-4')).events[0]!.data).toMatchObject({ authorName: DELETED_USER_NAME, title: '' });
    expect((await client.query(`SELECT 1 FROM keystore.subject_keys WHERE subject = 'u-cy'`)).rowCount).toBe(0);
  });
});

describe('the log stays append-only', () => {
  it('refuses an UPDATE, a DELETE, and, even in the sealing rewrite, a change of what an event says', async () => {
    await expect(client.query(`UPDATE eventstore.events SET type = 'X' WHERE stream_id = 'post-1'`)).rejects.toThrow('events are immutable');
    await expect(client.query(`DELETE FROM eventstore.events WHERE stream_id = 'post-1'`)).rejects.toThrow('events are immutable');
    await client.query('BEGIN');
    try {
      await client.query("SET LOCAL eventstore.rewrite TO 'seal'");
      await expect(client.query(`UPDATE eventstore.events SET data = data || '{"tags": ["Other"]}' WHERE stream_id = 'post-1'`)).rejects.toThrow(
        'events are immutable',
      );
    } finally {
      await client.query('ROLLBACK');
    }
  });
});

describe('events stored before sealing existed', () => {
  it('are sealed in place once, when the store migrates, resuming where it stopped, then read and erase as new ones', async () => {
    const legacy = await createTestDatabase('sealing_legacy');
    const old = new pg.Client({ connectionString: legacy.url });
    await old.connect();
    const pool = new pg.Pool({ connectionString: legacy.url, max: 2 });
    try {
      // the log as this build's predecessor wrote it: plain data, no key store
      await migrateEventStore(pool);
      await old.query('ALTER TABLE eventstore.events DISABLE TRIGGER events_seal; DELETE FROM eventstore.migrations');
      const v1 = { userId: ann.userId, name: 'Ann Zebrafinch II', photoURL: 'https://img.test/ann-face-2.png', updatedAt: at };
      const rows: [string, number, string, unknown, number][] = [
        ['user-u-ann', 1, 'UserRegistered', { ...ann, registeredAt: at }, 1],
        ['user-u-ann', 2, 'ProfileUpdated', v1, 1],
        ...Array.from({ length: 12 }, (_, i): [string, number, string, unknown, number] => [`post-${10 + i}`, 1, 'PostCreated', annPost(10 + i), 1]),
        ['vote-1', 1, 'VoteCast', { postId: uuidOf(10), userId: 'u-bo', previous: 'none', vote: 'up', at }, 1],
      ];
      for (const [stream, version, type, data, schema] of rows) {
        await old.query('INSERT INTO eventstore.events (stream_id, stream_version, type, data, metadata) VALUES ($1, $2, $3, $4, $5)', [
          stream,
          version,
          type,
          data,
          meta(schema),
        ]);
      }
      await old.query('INSERT INTO eventstore.streams (stream_id, version) SELECT stream_id, max(stream_version) FROM eventstore.events GROUP BY stream_id');
      await old.query('ALTER TABLE eventstore.events ENABLE TRIGGER events_seal');
      const plainRows = async () =>
        (await old.query<{ n: number }>(`SELECT count(*)::int AS n FROM eventstore.events WHERE type <> 'VoteCast' AND NOT data ? '$sealed'`)).rows[0]!.n;
      expect(await plainRows()).toBe(14);

      // a run that stopped after its first batch (the first five events sealed, nothing recorded)
      await old.query('BEGIN');
      await old.query("SET LOCAL eventstore.rewrite TO 'seal'");
      await old.query(`UPDATE eventstore.events SET data = eventstore.seal(type, metadata->>'schemaVersion', data) WHERE global_position <= 5`);
      await old.query('COMMIT');
      expect(await plainRows()).toBe(9);

      await migrateEventStore(pool);
      expect(await plainRows()).toBe(0);
      const recorded = await old.query('SELECT detail FROM eventstore.migrations WHERE name = $1', [SEAL_REWRITE]);
      expect(recorded.rows).toEqual([{ detail: { sealed: 9 } }]);
      const dump = (await old.query<{ data: string }>('SELECT data::text AS data FROM eventstore.events')).rows.map((r) => r.data).join('\n');
      for (const text of PLAINTEXT) expect(dump).not.toContain(text);

      // read as before (a v1 ProfileUpdated sealed at v1, upcast after opening), then erasable
      const reader = await createPostgresEventStore({ connectionString: legacy.url, poolSize: 1 });
      try {
        const user = await reader.readStream('user-u-ann');
        expect(user.events.map((e) => e.data)).toEqual([
          { ...ann, registeredAt: at },
          { userId: ann.userId, changes: { name: v1.name, photoURL: v1.photoURL }, updatedAt: at },
        ]);
        expect((await reader.readStream('post-10')).events[0]!.data).toEqual(annPost(10));
        await migrateEventStore(pool); // recorded: nothing to do, nothing sealed twice
        expect((await old.query('SELECT detail FROM eventstore.migrations')).rows).toEqual([{ detail: { sealed: 9 } }]);
        await reader.append([
          { streamId: 'user-u-ann', expectedVersion: 2, events: [event('AccountErased', { userId: ann.userId, content: 'erased', erasedAt: at })] },
        ]);
        expect((await reader.readStream('post-15')).events[0]!.data).toMatchObject({
          authorEmail: '',
          authorName: DELETED_USER_NAME,
          title: '',
          description: '',
        });
        expect((await reader.readStream('user-u-ann', { erasedAs: 'marked' })).events[1]!.data).toEqual({
          userId: ann.userId,
          changes: { name: ERASED_MARK, photoURL: ERASED_MARK },
          updatedAt: at,
        });
      } finally {
        await reader.close();
      }
    } finally {
      await old.end();
      await pool.end();
      await legacy.drop();
    }
  });
});

describe('the sealed boxes in Node (sealed-box.ts)', () => {
  const keys = async (subject: string) =>
    new Map(
      (await client.query<{ kind: SubjectKey; material: Buffer }>('SELECT kind, material FROM keystore.subject_keys WHERE subject = $1', [subject])).rows.map(
        (r) => [r.kind, r.material],
      ),
    );

  it('open what SQL sealed, and SQL opens what they seal', async () => {
    const post = { ...annPost(30), authorName: 'Zoë 🙂 "quoted"' };
    await store.append([{ streamId: 'post-30', expectedVersion: 'no_stream', events: [event('PostCreated', post)] }]);
    const [text] = await raw('post-30');
    const stored = JSON.parse(text!) as Record<string, unknown>;
    const ofAnn = await keys(ann.userId);
    expect(openData(stored, (_, kind) => ofAnn.get(kind))).toEqual(post);
    expect(openData(stored, () => undefined, 'marked')).toMatchObject({ authorName: ERASED_MARK, title: ERASED_MARK, tags: ['General'] });

    const v2 = { userId: ann.userId, changes: { name: 'Ann Ö' }, updatedAt: at };
    const sealed = sealData('ProfileUpdated', 2, v2, (_, kind) => ofAnn.get(kind)!);
    expect(JSON.stringify(sealed)).not.toContain('Ann Ö');
    const { rows } = await client.query<{ data: unknown }>('SELECT eventstore.unseal($1::jsonb) AS data', [JSON.stringify(sealed)]);
    expect(rows[0]!.data).toEqual(v2);
  });
});
