import type { PostsPage } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../testing/expect-status.ts';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { given } from '../testing/given.ts';
import { calls } from './calls.ts';

/**
 * A signed-in member's read of a page that is the same for everyone (the home page, the tags, the
 * leaderboard, a search) is answered from the memory the visitors' reads fill, and fills it too;
 * only after the member's own checks: a refused account is still 401, and X-Min-Position still waits.
 */
let forum: TestForum;
let member: NewUser;
let postId: string;

const { after, setVote } = calls(() => forum);
const { registeredUser, createPost } = given(() => forum);

beforeAll(async () => {
  forum = await startTestForum();
  member = await registeredUser('Shared Reader');
  const author = await registeredUser('Shared Author');
  const { id, position } = await createPost(author.token, { title: 'Shared title' });
  postId = id;
  await forum.api('/api/posts', { headers: after(position).headers });
});
afterAll(() => forum?.stop());

/** The read side's version, as a visitor's ETag tells it. */
const version = async () => (await forum.api('/api/tags')).headers.get('ETag');

/** Runs `read` until the read side's version held still while it ran (it may still be applying what the test wrote before). */
async function underOneVersion<T>(read: (tries: number) => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    const before = await version();
    const result = await read(tries);
    if ((await version()) === before) return result;
    expect(tries, 'the read side never held still').toBeLessThan(50);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The live build's table behind the view read.posts (the view joins, so it cannot be written through). */
async function postsTable() {
  const { rows } = await forum.db.raw<{ rows: { table_schema: string }[] }>(
    `SELECT table_schema FROM information_schema.view_table_usage WHERE view_schema = 'read' AND view_name = 'posts' AND table_name = 'posts'`,
  );
  return `"${rows[0]!.table_schema}".posts`;
}

const home = (token?: string, headers: Record<string, string> = {}) => forum.api('/api/posts?page=1', { ...(token ? { token } : {}), headers });

describe("a member's read of a page that is the same for everyone", () => {
  it('is answered from the kept body while the version holds: a row changed behind its back is not seen until the version moves', async () => {
    const title = await underOneVersion(async (tries) => {
      const first = await home(member.token);
      expect(first.status).toBe(200);
      const kept = await first.text();
      const changed = `Changed behind ${tries}`;
      await forum.db.raw(`UPDATE ${await postsTable()} SET title = ? WHERE id = ?`, [changed, postId]);
      expect(await (await home(member.token)).text()).toBe(kept);
      expect(await (await home()).text()).toBe(kept);
      return changed;
    });
    // any command the read side applies moves its version, and every kept body goes with it
    const voter = await registeredUser('Shared Voter');
    const voted = await setVote(postId, voter.token, 'up');
    const { position } = (await voted.json()) as { position: string };
    const page = await expectStatus<PostsPage>(home(member.token, after(position).headers));
    expect(page.posts.find((post) => post._id === postId)).toMatchObject({ title, upVote: 1 });
  });

  it('carries only the headers of the body: no validators, and no 304 for the visitors’ ETag', async () => {
    const [visitor, signedIn] = await underOneVersion(async () => {
      const visitor = await forum.api('/api/tags');
      await visitor.arrayBuffer();
      return [visitor, await forum.api('/api/tags', { token: member.token, headers: { 'If-None-Match': visitor.headers.get('ETag')! } })] as const;
    });
    expect(visitor.headers.get('ETag')).toMatch(/^W\/".+"$/);
    expect(signedIn.status).toBe(200);
    for (const name of ['ETag', 'Cache-Control']) expect(signedIn.headers.get(name)).toBeNull();
    expect(signedIn.headers.get('Vary') ?? '').not.toContain('Authorization');
    for (const name of ['Content-Type', 'X-Total-Count']) expect(signedIn.headers.get(name)).toBe(visitor.headers.get(name));
    expect(Number(signedIn.headers.get('Content-Length'))).toBeGreaterThan(0);
    expect(await signedIn.json()).toEqual(await (await forum.api('/api/tags')).json());
  });

  it('is refused for a disabled account even when the page is kept', async () => {
    const user = await registeredUser('Soon Disabled');
    await expectStatus(home(user.token));
    // the realm answers once the read side refuses the account
    const adminToken = (await forum.demoAdmin()).token;
    expect((await forum.api(`/admin/realms/forum/users/${user.id}`, { method: 'PUT', token: adminToken, json: { enabled: false } })).status).toBe(204);
    await underOneVersion(async () => {
      // the page kept at the version the disabling left
      await expectStatus(home());
      expect(await expectStatus(home(user.token), 401)).toMatchObject({ error: { code: 'ACCOUNT_DISABLED' } });
      expect((await home(member.token)).status).toBe(200);
    });
  });

  it('waits for the X-Min-Position it names, and is never answered from before it', async () => {
    await expectStatus(home(member.token));
    await expectStatus(home(member.token));
    const { id, position } = await createPost(member.token, { title: 'Written just now' });
    const page = await expectStatus<PostsPage>(home(member.token, after(position).headers));
    expect(page.posts.map((post) => post._id)).toContain(id);
    const search = await expectStatus<PostsPage>(forum.api('/api/posts/search?q=written&page=1', { token: member.token, headers: after(position).headers }));
    expect(search.posts.map((post) => post._id)).toContain(id);
  });
});
