import { randomUUID } from 'node:crypto';
import { ErrorCode, FREE_POST_LIMIT } from '@forum/contracts';
import { anyString, createTestDatabase } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore, type EventStore } from '@forum/eventstore';
import { testCommandMeta } from './testing.ts';
import { createForumCommands, type ForumCommands, type Identity } from './forum.ts';

/**
 * Each command process keeps the streams it folded lately and reads only what came after: two
 * processes (two stores, two sets of kept streams) writing to the same streams at once still hold
 * every rule, and each sees what the other appended.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let stores: EventStore[];
let processes: ForumCommands[];
beforeAll(async () => {
  database = await createTestDatabase('folded');
  stores = await Promise.all([1, 2].map(() => createPostgresEventStore({ connectionString: database.url, poolSize: 8 })));
  processes = stores.map((store) => createForumCommands(store, { adminEmails: [] }));
});
afterAll(async () => {
  for (const store of stores ?? []) await store.close();
  await database?.drop();
});

const meta = () => testCommandMeta({ actorId: 'u', now: new Date(), correlationId: randomUUID() });
const member = (): Identity => {
  const id = randomUUID();
  return { userId: id, email: `${id}@forum.test`, name: 'Writer', photoURL: '' };
};
const post = (commands: ForumCommands, who: Identity) =>
  commands.createPost(who, { postId: randomUUID(), title: 'A post', description: 'x', tags: [] }, { ...meta(), actorId: who.userId });

describe('streams folded and kept by two command processes', () => {
  it('hold the free limit when both post for one user at once', async () => {
    const who = member();
    // each process folds the user's stream first, so both start from kept states
    for (const commands of processes) await commands.registerUser(who, meta());
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => post(processes[i % 2]!, who)));
    const made = outcomes.filter((o) => o.status === 'fulfilled').length;
    expect(made).toBeLessThanOrEqual(FREE_POST_LIMIT);
    // a refusal is the limit, or (on a loaded machine, a request that lost every retry) a conflict to try again
    for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
      expect([ErrorCode.POST_LIMIT_REACHED, ErrorCode.CONFLICT]).toContain((outcome.reason as { code?: unknown }).code);
    }
    // whatever the race left, the user ends with exactly the free limit of posts, from either process
    for (let more = made; more < FREE_POST_LIMIT; more++) await post(processes[more % 2]!, who);
    for (const commands of processes) await expect(post(commands, who)).rejects.toMatchObject({ code: ErrorCode.POST_LIMIT_REACHED });
  });

  it('see what the other appended: a post deleted by one frees a place for the other', async () => {
    const who = member();
    const [a, b] = processes as [ForumCommands, ForumCommands];
    const ids: string[] = [];
    for (let i = 0; i < FREE_POST_LIMIT; i++) ids.push((await post(a, who)).answer.id!);
    await expect(post(a, who)).rejects.toMatchObject({ code: ErrorCode.POST_LIMIT_REACHED });
    await b.deletePost(who, ids[0]!, { ...meta(), actorId: who.userId });
    // a's kept state still counts five posts; it reads the deletion after it and posts
    await expect(post(a, who)).resolves.toMatchObject({ answer: { id: anyString } });
    await expect(post(b, who)).rejects.toMatchObject({ code: ErrorCode.POST_LIMIT_REACHED });
  });
});
