import { randomUUID } from 'node:crypto';
import { commentStream, postStream } from '@forum/contracts';
import { containing, createTestDatabase } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore, type EventStore } from '@forum/eventstore';
import { testCommandMeta } from './testing.ts';
import { createForumCommands, type ForumCommands, type Identity } from './forum.ts';

/**
 * A new post's or comment's stream is named by the request itself (a random id): the command does
 * not read it before appending (loadAssumingNew). An id that exists after all still gets the rule's
 * answer (409, one event in the log): the append expects no stream, and the next attempt reads it.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let store: EventStore;
let commands: ForumCommands;
const read: string[] = [];
beforeAll(async () => {
  database = await createTestDatabase('named');
  store = await createPostgresEventStore({ connectionString: database.url, poolSize: 4 });
  // the real store, its stream reads noted
  const noted = Object.create(store) as EventStore;
  noted.readStream = (streamId, options) => {
    read.push(streamId);
    return store.readStream(streamId, options);
  };
  commands = createForumCommands(noted, { adminEmails: [] });
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

const who: Identity = { userId: randomUUID(), email: 'named@forum.test', name: 'Writer', photoURL: '' };
const meta = () => testCommandMeta({ actorId: who.userId, now: new Date(), correlationId: randomUUID() });
const eventsOf = async (streamId: string) => (await store.readStream(streamId)).events.map((event) => event.type);

describe('a stream named by the request', () => {
  it('is not read when a post and a comment are made, and each gets its event', async () => {
    const postId = randomUUID();
    const commentId = randomUUID();
    await commands.createPost(who, { postId, title: 'A post', description: 'x', tags: [] }, meta());
    expect(read).not.toContain(postStream(postId));
    await commands.addComment(who, { commentId, postId, text: 'A comment' }, meta());
    expect(read).not.toContain(commentStream(commentId));
    expect(read).toContain(postStream(postId)); // a comment reads its post
    expect(await eventsOf(postStream(postId))).toEqual(['PostCreated']);
    expect(await eventsOf(commentStream(commentId))).toEqual(['CommentAdded']);
  });

  it('that exists after all: 409 as before, and the log keeps one event', async () => {
    const postId = randomUUID();
    const commentId = randomUUID();
    await commands.createPost(who, { postId, title: 'A post', description: 'x', tags: [] }, meta());
    await commands.addComment(who, { commentId, postId, text: 'A comment' }, meta());
    read.length = 0;
    await expect(commands.createPost(who, { postId, title: 'Again', description: 'x', tags: [] }, meta())).rejects.toMatchObject({
      kind: 'conflict',
      message: containing('already exists'),
    });
    await expect(commands.addComment(who, { commentId, postId, text: 'Again' }, meta())).rejects.toMatchObject({
      kind: 'conflict',
      message: containing('already exists'),
    });
    // the second attempts read them
    expect(read).toContain(postStream(postId));
    expect(read).toContain(commentStream(commentId));
    expect(await eventsOf(postStream(postId))).toEqual(['PostCreated']);
    expect(await eventsOf(commentStream(commentId))).toEqual(['CommentAdded']);
  });
});
