import { HEADER_EVENT_POSITION, HEADER_MIN_POSITION, HEADER_READ_BEHIND, PAGE_SIZE, type PostDetail, type PostsPage } from '@forum/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

let forum: TestForum;
let alice: string;
let bob: string;

const eventCount = () => forum.eventCount();
const newPost = (title: string, extra: Record<string, unknown> = {}) => ({ title, description: `About ${title}`, tags: ['React'], ...extra });

beforeAll(async () => {
  // the deployment's wait for X-Min-Position: one test is about what happens past it
  forum = await startTestForum({ MIN_POSITION_WAIT_MS: '3000' });
});
// every test writes as fresh users: the free post limit (5) is not what this file is about
beforeEach(async () => {
  [alice, bob] = (await Promise.all([forum.newUser('Alice Martin'), forum.newUser('Bob Chen')])).map((u) => u.token) as [string, string];
});
afterAll(() => forum?.stop());

describe('POST /api/posts then GET /api/posts', () => {
  it('when alice creates a post and lists with X-Min-Position, the post is on the first page at once', async () => {
    const created = await forum.api('/api/posts', { method: 'POST', token: alice, json: newPost('Read your writes') });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { id: string; position: string };
    expect(created.headers.get(HEADER_EVENT_POSITION)).toBe(body.position);

    const list = await forum.api('/api/posts?page=1&sort=newest', { headers: { [HEADER_MIN_POSITION]: body.position } });
    expect(list.status).toBe(200);
    expect(list.headers.get(HEADER_READ_BEHIND)).toBeNull();
    const page = (await list.json()) as PostsPage;
    expect(page.posts[0]).toMatchObject({
      _id: body.id,
      title: 'Read your writes',
      authorName: 'Alice Martin',
      tags: ['React'],
      upVote: 0,
      downVote: 0,
      commentCount: 0,
    });
  });

  it('takes author, time and counts from the token and the server, not from the body', async () => {
    const before = Date.now();
    const created = await forum.api('/api/posts', {
      method: 'POST',
      token: alice,
      json: newPost('Spoofed', {
        authorName: 'Mallory',
        authorEmail: 'mallory@evil.test',
        authorPhoto: 'x',
        createdAt: '2001-01-01T00:00:00Z',
        upVote: 99,
        downVote: 5,
      }),
    });
    const { id, position } = (await created.json()) as { id: string; position: string };
    const post = (await (await forum.api(`/api/posts/${id}`, { token: alice, headers: { [HEADER_MIN_POSITION]: position } })).json()) as PostDetail;
    expect(post).toMatchObject({ authorName: 'Alice Martin', upVote: 0, downVote: 0 });
    expect(post.authorEmail).toMatch(/^alice-martin-.*@forum\.test$/);
    expect(Date.parse(post.createdAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('compares the body as sent, not as read: one that differs only in what the schema trims or drops is another body (422)', async () => {
    await forum.api('/api/posts', { method: 'POST', token: alice, headers: { 'Idempotency-Key': 'as-sent' }, json: newPost('Sent as is') });
    const events = await eventCount();
    for (const json of [{ ...newPost('Sent as is'), title: '  Sent as is  ' }, newPost('Sent as is', { upVote: 99 })]) {
      const reused = await forum.api('/api/posts', { method: 'POST', token: alice, headers: { 'Idempotency-Key': 'as-sent' }, json });
      expect(reused.status).toBe(422);
      expect(((await reused.json()) as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    }
    expect(await eventCount()).toBe(events);
  });
});

describe('reading posts', () => {
  it('pages 5 posts at a time with the total, newest first, and the summary cut at 80 characters', async () => {
    const long = 'x'.repeat(120);
    const created = await forum.api('/api/posts', { method: 'POST', token: bob, json: newPost('Long one', { description: long }) });
    const { position } = (await created.json()) as { position: string };
    const first = (await (await forum.api('/api/posts?page=1', { headers: { [HEADER_MIN_POSITION]: position } })).json()) as PostsPage;
    const total = (await forum.db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM read.posts')).rows[0]!.n;
    expect(first.totalCount).toBe(total);
    expect(first.posts).toHaveLength(PAGE_SIZE);
    expect(first.posts[0]!.summary).toBe('x'.repeat(80) + '...');
    const dates = first.posts.map((p) => Date.parse(p.createdAt));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    const lastPage = Math.ceil(total / PAGE_SIZE);
    const last = (await (await forum.api(`/api/posts?page=${lastPage}`)).json()) as PostsPage;
    expect(last.posts.length).toBe(total - (lastPage - 1) * PAGE_SIZE);
    expect(first.posts[0]).not.toHaveProperty('authorEmail');
  });

  it('sorts by popularity when asked and refuses an unknown sort', async () => {
    expect((await forum.api('/api/posts?sort=popularity')).status).toBe(200);
    const bad = await forum.api('/api/posts?sort=random&page=0');
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as { error: { details: object } }).error.details).sort()).toEqual(['page', 'sort']);
  });

  it('shows the author email only to the author', async () => {
    const created = await forum.api('/api/posts', { method: 'POST', token: alice, json: newPost('Private email') });
    const { id, position } = (await created.json()) as { id: string; position: string };
    const read = async (token?: string) =>
      (await (await forum.api(`/api/posts/${id}`, { ...(token ? { token } : {}), headers: { [HEADER_MIN_POSITION]: position } })).json()) as PostDetail;
    expect((await read(alice)).authorEmail).toMatch(/^alice-martin-/);
    expect(await read(bob)).not.toHaveProperty('authorEmail');
    expect(await read()).not.toHaveProperty('authorEmail');
  });

  it('answers 404 NOT_FOUND for a missing post and 400 for a malformed id', async () => {
    expect((await forum.api('/api/posts/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await forum.api('/api/posts/not-a-uuid')).status).toBe(400);
  });

  it('lists tags as an array of names', async () => {
    const tags = (await (await forum.api('/api/tags')).json()) as string[];
    expect(tags).toContain('React');
    expect(tags.every((t) => typeof t === 'string')).toBe(true);
  });

  it('pages with Content-Range when react-admin asks with range', async () => {
    const response = await forum.api(`/api/posts?range=${encodeURIComponent('[0,2]')}&sort=${encodeURIComponent('["createdAt","DESC"]')}&filter=%7B%7D`);
    expect(response.status).toBe(200);
    const total = (await forum.db.raw<{ rows: { n: number }[] }>('SELECT count(*)::int AS n FROM read.posts')).rows[0]!.n;
    expect(response.headers.get('Content-Range')).toBe(`posts 0-2/${total}`);
    const items = (await response.json()) as { id: string; _id: string }[];
    expect(items).toHaveLength(3);
    expect(items[0]!.id).toBe(items[0]!._id);
    expect((await forum.api('/api/posts?range=notjson')).status).toBe(400);
  });

  it('answers at once with X-Read-Behind when the position cannot be reached in time', async () => {
    const future = '999999999.999999999';
    const started = Date.now();
    const response = await forum.api('/api/posts', { headers: { [HEADER_MIN_POSITION]: future } });
    expect(response.status).toBe(200);
    expect(response.headers.get(HEADER_READ_BEHIND)).toBe('true');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await forum.api('/api/posts', { headers: { [HEADER_MIN_POSITION]: 'garbage' } })).status).toBe(400);
  });
});

describe('operability', () => {
  it('is live and ready, with every projection within its lag bound', async () => {
    expect((await forum.api('/healthz')).status).toBe(200);
    const ready = await forum.api('/readyz');
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { checks: Record<string, { ok: boolean; detail?: unknown }> };
    expect(Object.keys(body.checks).sort()).toEqual(['database', 'eventStore', 'projections']);
    expect(body.checks.projections!.detail).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'posts', state: 'live' }), expect.objectContaining({ name: 'tags', state: 'live' })]),
    );
  });

  it('serves forum-web at / and its routes, and admin-web at /admin; a post that is not there is the forum’s page with 404', async () => {
    for (const path of ['/', '/about', '/admin', '/admin/posts']) {
      const response = await forum.api(path, { headers: { Accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain('<div id="root"');
    }
    const missing = await forum.api('/post/123', { headers: { Accept: 'text/html' } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<div id="root"');
  });
});
