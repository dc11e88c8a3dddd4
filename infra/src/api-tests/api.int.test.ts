import { HEADER_EVENT_POSITION, HEADER_MIN_POSITION, HEADER_READ_BEHIND, PAGE_SIZE, type PostDetail, type PostsPage } from '@forum/contracts';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

let forum: TestForum;
let alice: string;
let bob: string;

const eventCount = () => forum.eventCount();
const postsCreated = async () =>
  (await forum.db.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM eventstore.events WHERE type = 'PostCreated'`)).rows[0]!.n;
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
    expect(page.posts[0]).toMatchObject({ _id: body.id, title: 'Read your writes', authorName: 'Alice Martin', tags: ['React'], upVote: 0, downVote: 0, commentCount: 0 });
  });

  it('takes author, time and counts from the token and the server, not from the body', async () => {
    const before = Date.now();
    const created = await forum.api('/api/posts', {
      method: 'POST',
      token: alice,
      json: newPost('Spoofed', { authorName: 'Mallory', authorEmail: 'mallory@evil.test', authorPhoto: 'x', createdAt: '2001-01-01T00:00:00Z', upVote: 99, downVote: 5 }),
    });
    const { id, position } = (await created.json()) as { id: string; position: string };
    const post = (await (await forum.api(`/api/posts/${id}`, { token: alice, headers: { [HEADER_MIN_POSITION]: position } })).json()) as PostDetail;
    expect(post).toMatchObject({ authorName: 'Alice Martin', upVote: 0, downVote: 0 });
    expect(post.authorEmail).toMatch(/^alice-martin-.*@forum\.test$/);
    expect(Date.parse(post.createdAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('with the same Idempotency-Key twice creates one post and answers the second call with the first answer', async () => {
    const posts = await postsCreated();
    const send = () => forum.api('/api/posts', { method: 'POST', token: alice, headers: { 'Idempotency-Key': 'retry-1' }, json: newPost('Only once') });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
    expect(await postsCreated()).toBe(posts + 1);
  });

  it('with one Idempotency-Key sent by 10 requests at once creates one post', async () => {
    const posts = await postsCreated();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => forum.api('/api/posts', { method: 'POST', token: bob, headers: { 'Idempotency-Key': 'burst' }, json: newPost('Burst') })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(await Promise.all(answers.map(async (a) => JSON.stringify(await a.json())))).size).toBe(1);
    expect(await postsCreated()).toBe(posts + 1);
  });

  it('scopes Idempotency-Keys to the caller: bob reusing alice\'s key makes his own post', async () => {
    await forum.api('/api/posts', { method: 'POST', token: alice, headers: { 'Idempotency-Key': 'shared' }, json: newPost('Alice key') });
    const bobs = await forum.api('/api/posts', { method: 'POST', token: bob, headers: { 'Idempotency-Key': 'shared' }, json: newPost('Alice key') });
    expect(bobs.status).toBe(201);
    expect(bobs.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED when a key comes back with another body, and appends nothing', async () => {
    await forum.api('/api/posts', { method: 'POST', token: alice, headers: { 'Idempotency-Key': 'reuse' }, json: newPost('First body') });
    const events = await eventCount();
    const reused = await forum.api('/api/posts', { method: 'POST', token: alice, headers: { 'Idempotency-Key': 'reuse' }, json: newPost('Other body') });
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await eventCount()).toBe(events);
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

  it('scopes Idempotency-Keys to the path as sent: the same key on /api/posts/ is another call than on /api/posts', async () => {
    const first = await forum.api('/api/posts', { method: 'POST', token: bob, headers: { 'Idempotency-Key': 'by-path' }, json: newPost('By path') });
    const other = await forum.api('/api/posts/', { method: 'POST', token: bob, headers: { 'Idempotency-Key': 'by-path' }, json: newPost('By path') });
    expect([first.status, other.status]).toEqual([201, 201]);
    expect(other.headers.get('Idempotent-Replayed')).toBeNull();
  });
});

describe('bad requests change nothing', () => {
  it('when the title is empty, it answers 400 VALIDATION_FAILED with a field message and appends nothing', async () => {
    const events = await eventCount();
    const response = await forum.api('/api/posts', { method: 'POST', token: alice, json: newPost('') });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'The request is not valid', details: { title: ['Title is required'] } } });
    expect(await eventCount()).toBe(events);
  });

  it('when a tag does not exist, it answers 400 with the tag named and appends nothing', async () => {
    const events = await eventCount();
    const response = await forum.api('/api/posts', { method: 'POST', token: alice, json: newPost('Bad tag', { tags: ['react', 'no-such-tag'] }) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { details: unknown } }).error.details).toEqual({ tags: ['Unknown tag "no-such-tag"'] });
    expect(await eventCount()).toBe(events);
  });

  it('when the body is not JSON, it answers 400 VALIDATION_FAILED', async () => {
    const response = await forum.api('/api/posts', { method: 'POST', token: alice, headers: { 'Content-Type': 'application/json' }, body: '{"title":' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');
  });

  it('without a token, it answers 401 UNAUTHENTICATED and appends nothing', async () => {
    const events = await eventCount();
    const response = await forum.api('/api/posts', { method: 'POST', json: newPost('Anonymous') });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    expect(await eventCount()).toBe(events);
  });

  it('with a tampered token, it answers 401', async () => {
    const [header, , signature] = alice.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(alice), email: 'admin@forum.local' })).toString('base64url')}.${signature}`;
    const response = await forum.api('/api/posts', { method: 'POST', token: forged, json: newPost('Forged') });
    expect(response.status).toBe(401);
  });

  it('never sends a stack trace for an unknown route', async () => {
    const response = await forum.api('/api/nothing-here', { method: 'DELETE', token: alice });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such endpoint' } });
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

  it('records the actor, correlation id, request id and schema version on every event', async () => {
    const response = await forum.api('/api/posts', { method: 'POST', token: bob, headers: { 'X-Correlation-Id': 'corr-42' }, json: newPost('Audited') });
    const requestId = response.headers.get('X-Request-Id');
    const { id } = (await response.json()) as { id: string };
    const { events } = await forum.store.readStream(`post-${id}`);
    const bobId = (events[0]!.data as { authorId: string }).authorId;
    expect(events[0]!.metadata).toEqual({ actorId: bobId, correlationId: 'corr-42', causationId: requestId, requestId, schemaVersion: 1 });
    expect((await forum.api('/api/me', { token: bob }).then((r) => r.json())) as { _id: string }).toMatchObject({ _id: bobId });
  });

  it('serves forum-web at / and its routes, and admin-web at /admin', async () => {
    for (const path of ['/', '/post/123', '/admin', '/admin/posts']) {
      const response = await forum.api(path, { headers: { Accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain('<div id="root"');
    }
  });
});
