import { FREE_POST_LIMIT, HEADER_MIN_POSITION, type PostListItem } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

let forum: TestForum;
let admin: string;

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.tokenFor('admin@forum.local');
});
afterAll(() => forum?.stop());

const newUser = (name: string) => forum.newUser(name);
const create = (token: string, title = 'A post') => forum.api('/api/posts', { method: 'POST', token, json: { title, description: 'Text', tags: [] } });
/** Creates n posts; answers their ids, and the position of the last one as `position`. */
async function createMany(token: string, n: number) {
  const ids: string[] & { position?: string } = [];
  for (let i = 0; i < n; i++) {
    const { id, position } = (await (await create(token, `Post ${i}`)).json()) as { id: string; position: string };
    ids.push(id);
    ids.position = position;
  }
  return ids;
}

describe('the free post limit', () => {
  it(`holds under concurrency: 20 creates at once by a user at ${FREE_POST_LIMIT - 1} posts let exactly one through`, { timeout: 60_000 }, async () => {
    const user = await newUser('jay');
    await createMany(user.token, FREE_POST_LIMIT - 1);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create(user.token, `Race ${i}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 422)).toBe(true);
    const { position } = (await answers[statuses.indexOf(201)]!.json()) as { position: string };
    const count = await forum.api(`/api/user-post-count/${user.email}`, { token: user.token, headers: { [HEADER_MIN_POSITION]: position } });
    expect(await count.json()).toEqual({ count: FREE_POST_LIMIT });
  });
});

describe('DELETE /api/my-posts/:id', () => {
  it('lets the author delete their post: it leaves the lists and the total', async () => {
    const user = await newUser('lee');
    const ids = await createMany(user.token, 1);
    const id = ids[0]!;
    const before = ((await (await forum.api('/api/posts', { headers: { [HEADER_MIN_POSITION]: ids.position! } })).json()) as { totalCount: number }).totalCount;
    const deleted = await forum.api(`/api/my-posts/${id}`, { method: 'DELETE', token: user.token });
    expect(deleted.status).toBe(200);
    const { position } = (await deleted.json()) as { position: string };
    expect((await forum.api(`/api/posts/${id}`, { headers: { [HEADER_MIN_POSITION]: position } })).status).toBe(410);
    const after = (await (await forum.api('/api/posts', { headers: { [HEADER_MIN_POSITION]: position } })).json()) as { totalCount: number };
    expect(after.totalCount).toBe(before - 1);
    expect((await forum.api(`/api/my-posts/${id}`, { method: 'DELETE', token: user.token })).status).toBe(404);
  });
});

describe('GET /api/my-posts/:email and /api/user-post-count/:email', () => {
  it('answer the caller about their own posts, newest first', async () => {
    const user = await newUser('pia');
    const { position } = await createMany(user.token, 3);
    const posts = (await (
      await forum.api(`/api/my-posts/${user.email.toUpperCase()}`, { token: user.token, headers: { [HEADER_MIN_POSITION]: position! } })
    ).json()) as PostListItem[];
    expect(posts.map((p) => p.title)).toEqual(['Post 2', 'Post 1', 'Post 0']);
    expect(await (await forum.api(`/api/user-post-count/${user.email}`, { token: user.token })).json()).toEqual({ count: 3 });
  });

  it('refuse another user (403) and a visitor (401), answer an admin, and 404 an unknown email for an admin', async () => {
    const user = await newUser('quin');
    const other = await newUser('ray');
    await createMany(user.token, 1);
    for (const path of [`/api/my-posts/${user.email}`, `/api/user-post-count/${user.email}`]) {
      expect((await forum.api(path, { token: other.token })).status, path).toBe(403);
      expect((await forum.api(path)).status, path).toBe(401);
      expect((await forum.api(path, { token: admin })).status, path).toBe(200);
    }
    expect((await forum.api('/api/user-post-count/nobody@forum.local', { token: admin })).status).toBe(404);
    expect((await forum.api('/api/user-post-count/not-an-email', { token: admin })).status).toBe(400);
  });
});
