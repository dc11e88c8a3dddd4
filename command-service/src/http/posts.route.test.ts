import { FREE_POST_LIMIT } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { anAdmin, aPosition, anError, anId, commandApiSpec, hostileText, member, registered, tagCreated, visitor } from '../testing/index.ts';
import { anyString } from '@forum/platform/testing';

const api = commandApiSpec();
const alice = member('Alice Martin', { photo: 'https://img.example/alice.png' });
const bob = member('Bob Chen');
const ada = member('Ada Admin');
const post = (title = 'A post', more: { description?: string; tags?: string[] } = {}) => ({ title, description: `About ${title}`, tags: [], ...more });
const NO_POST = '00000000-0000-4000-8000-000000000000';

describe('POST /api/posts', () => {
  it('answers 201 {id, position}; the author comes from the token, the time from the server; a first request registers its author in the same append', async () => {
    await api.given(tagCreated('React'));
    const before = Date.now();
    const { body, appended } = await api
      .when(alice.post('/api/posts', post('Read your writes', { tags: ['react'] })))
      .then(201, { id: anId, position: aPosition }, [
        {
          type: 'PostCreated',
          data: {
            title: 'Read your writes',
            description: 'About Read your writes',
            tags: ['React'],
            authorId: alice.id,
            authorName: 'Alice Martin',
            authorEmail: alice.email,
            authorPhoto: alice.photo,
          },
        },
        { streamId: `user-${alice.id}`, type: 'UserRegistered', data: { userId: alice.id, email: alice.email, name: 'Alice Martin', photoURL: alice.photo } },
        { streamId: `user-${alice.id}`, type: 'PostAuthored' },
      ]);
    const { id } = body as { id: string };
    expect(appended[0]).toMatchObject({ streamId: `post-${id}`, data: { postId: id } });
    expect(Date.parse((appended[0]!.data as { createdAt: string }).createdAt)).toBeGreaterThanOrEqual(before - 1000);
    // one append: one transaction
    expect(new Set(appended.map((e) => e.position.transactionId)).size).toBe(1);
  });

  it('records the actor, correlation id, request id and schema version on every event', async () => {
    await api.given(registered(bob));
    const { headers, appended } = await api.when(bob.post('/api/posts', post('Audited'), { headers: { 'X-Correlation-Id': 'corr-42' } })).then(201);
    const requestId = headers['x-request-id'];
    expect(requestId).toEqual(anyString);
    expect(appended.map((e) => e.metadata)).toEqual([
      { actorId: bob.id, correlationId: 'corr-42', causationId: requestId, requestId, schemaVersion: 1 },
      { actorId: bob.id, correlationId: 'corr-42', causationId: requestId, requestId, schemaVersion: 1 },
    ]);
  });

  it('refuses an empty title with 400 VALIDATION_FAILED and its message, appending nothing', async () => {
    await api.when(alice.post('/api/posts', post(''))).then(400, {
      error: { code: 'VALIDATION_FAILED', message: 'The request is not valid', details: { title: ['Title is required'] } },
    });
  });

  it('refuses a tag that does not exist with 400 naming it, appending nothing', async () => {
    await api.given(tagCreated('React'));
    await api
      .when(alice.post('/api/posts', post('Bad tag', { tags: ['react', 'no-such-tag'] })))
      .then(400, anError('VALIDATION_FAILED', { details: { tags: ['Unknown tag "no-such-tag"'] } }));
  });

  it.each([
    ...hostileText('line').map(([what, value]) => ['title', what, { title: value, description: 'd', tags: ['Safe'] }] as const),
    ...hostileText('body').map(([what, value]) => ['description', what, { title: 't', description: value, tags: ['Safe'] }] as const),
    ...hostileText('line').map(([what, value]) => ['tags.0', what, { title: 't', description: 'd', tags: [value] }] as const),
  ])('refuses hostile text in %s (%s) with 400 on the field, appending nothing', async (field, _what, body) => {
    await api.given(registered(alice), tagCreated('Safe'));
    const { body: answer } = await api.when(alice.post('/api/posts', body)).then(400);
    expect(Object.keys((answer as { error: { details: object } }).error.details)).toContain(field);
  });

  it('refuses a body that is not UTF-8 (the bytes of a lone surrogate, a stray 0xFF) with 400, never reading it with replacement characters', async () => {
    for (const bytes of [[0xed, 0xa0, 0x80], [0xff]]) {
      const body = Buffer.concat([Buffer.from('{"title":"a'), Buffer.from(bytes), Buffer.from('b","description":"d","tags":[]}')]);
      await api.when(alice.send('POST', '/api/posts', body)).then(400, anError('VALIDATION_FAILED', { message: 'The body is not valid UTF-8' }));
    }
  });

  it('refuses a body that is not JSON with 400 VALIDATION_FAILED', async () => {
    await api.when(alice.send('POST', '/api/posts', '{"title":')).then(400, anError('VALIDATION_FAILED', { message: 'The body is not valid JSON' }));
  });

  it('refuses a visitor with 401 UNAUTHENTICATED before looking at the body', async () => {
    await api.when(visitor.post('/api/posts', { title: '' })).then(401, anError('UNAUTHENTICATED'));
  });

  it(`when a free user with ${FREE_POST_LIMIT} posts creates a post, it answers 422 POST_LIMIT_REACHED and appends nothing`, async () => {
    await api.given(...Array.from({ length: FREE_POST_LIMIT }, (_, i) => alice.post('/api/posts', post(`Post ${i}`))));
    await api
      .when(alice.post('/api/posts', post('One too many')))
      .then(422, anError('POST_LIMIT_REACHED', { details: { count: FREE_POST_LIMIT, limit: FREE_POST_LIMIT } }));
  });

  it(`holds under concurrency: 20 creates at once by a user at ${FREE_POST_LIMIT - 1} posts let exactly one through`, async () => {
    await api.given(...Array.from({ length: FREE_POST_LIMIT - 1 }, (_, i) => alice.post('/api/posts', post(`Post ${i}`))));
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => api.when(alice.post('/api/posts', post(`Race ${i}`))).outcome));
    expect(outcomes.map((o) => o.status).sort()).toEqual([201, ...Array<number>(19).fill(422)]);
    expect((await api.log()).filter((e) => e.type === 'PostCreated')).toHaveLength(FREE_POST_LIMIT);
  });

  it('frees a slot when a post is deleted', async () => {
    const posts = await api.given(...Array.from({ length: FREE_POST_LIMIT }, (_, i) => alice.post('/api/posts', post(`Post ${i}`))));
    await api.when(alice.post('/api/posts', post('Refused'))).then(422);
    await api.given(alice.delete(`/api/my-posts/${posts[0]!.id}`));
    await api.when(alice.post('/api/posts', post('In the freed slot'))).then(201);
    await api.when(alice.post('/api/posts', post('Refused again'))).then(422);
  });
});

describe('POST /api/posts with an Idempotency-Key', () => {
  const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });

  it('twice: one post; the second call answers the first answer, marked Idempotent-Replayed, and appends nothing', async () => {
    const first = await api.when(alice.post('/api/posts', post('Only once'), keyed('retry-1'))).then(201);
    const second = await api.when(alice.post('/api/posts', post('Only once'), keyed('retry-1'))).then(201, first.body, []);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
  });

  it('sent by 10 requests at once: one post, one answer for all', async () => {
    await api.given(registered(bob));
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => api.when(bob.post('/api/posts', post('Burst'), keyed('burst'))).outcome));
    expect(outcomes.map((o) => o.status)).toEqual(Array(10).fill(201));
    expect(new Set(outcomes.map((o) => JSON.stringify(o.body))).size).toBe(1);
    expect((await api.log()).filter((e) => e.type === 'PostCreated')).toHaveLength(1);
  });

  it("is the caller's own: bob reusing alice's key makes his own post", async () => {
    await api.given(alice.post('/api/posts', post('Alice key'), keyed('shared')));
    const bobs = await api.when(bob.post('/api/posts', post('Alice key'), keyed('shared'))).then(201);
    expect(bobs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED when the key comes back with another body, also one that differs only in what the schema trims', async () => {
    await api.given(alice.post('/api/posts', post('First body'), keyed('reuse')));
    await api.when(alice.post('/api/posts', post('Other body'), keyed('reuse'))).then(422, anError('IDEMPOTENCY_KEY_REUSED'));
    await api.when(alice.post('/api/posts', { ...post('First body'), title: '  First body  ' }, keyed('reuse'))).then(422, anError('IDEMPOTENCY_KEY_REUSED'));
  });

  it('is scoped to the path as sent: the same key on /api/posts/ is another call than on /api/posts', async () => {
    await api.given(bob.post('/api/posts', post('By path'), keyed('by-path')));
    const other = await api.when(bob.post('/api/posts/', post('By path'), keyed('by-path'))).then(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a key that is not 1 to 255 visible ASCII characters with 400 on the header', async () => {
    for (const key of ['has space', 'x'.repeat(256), 'ü']) {
      await api
        .when(alice.post('/api/posts', post('Keyed'), keyed(key)))
        .then(400, anError('VALIDATION_FAILED', { details: { 'Idempotency-Key': ['Must be 1 to 255 visible ASCII characters'] } }));
    }
  });
});

describe('DELETE /api/my-posts/:id', () => {
  it("lets the author delete their post: 200 {id, position}, the post deleted and the author's slot freed in one append; again, 404", async () => {
    const [{ id }] = await api.given(alice.post('/api/posts', post()));
    await api.when(alice.delete(`/api/my-posts/${id}`)).then(200, { id, position: aPosition }, [
      { streamId: `post-${id}`, type: 'PostDeleted', data: { postId: id, authorId: alice.id, deletedBy: alice.id } },
      { streamId: `user-${alice.id}`, type: 'AuthoredPostRemoved', data: { userId: alice.id, postId: id } },
    ]);
    await api.when(alice.delete(`/api/my-posts/${id}`)).then(404, anError('NOT_FOUND'));
  });

  it("refuses another user with 403 and a visitor with 401, appending nothing; an admin deletes it, freeing the author's slot", async () => {
    const [{ id }] = await api.given(alice.post('/api/posts', post()), registered(bob), anAdmin(ada));
    await api.when(bob.delete(`/api/my-posts/${id}`)).then(403, anError('FORBIDDEN'));
    await api.when(visitor.delete(`/api/my-posts/${id}`)).then(401, anError('UNAUTHENTICATED'));
    await api.when(ada.delete(`/api/my-posts/${id}`)).then(200, { id, position: aPosition }, [
      { streamId: `post-${id}`, type: 'PostDeleted', data: { deletedBy: ada.id }, metadata: { actorId: ada.id } },
      { streamId: `user-${alice.id}`, type: 'AuthoredPostRemoved' },
    ]);
  });

  it('answers 404 for a post that does not exist, 400 for a malformed id, and refuses a body (a call without one)', async () => {
    const [{ id }] = await api.given(alice.post('/api/posts', post()));
    await api.when(alice.delete(`/api/my-posts/${NO_POST}`)).then(404, anError('NOT_FOUND'));
    await api.when(alice.delete('/api/my-posts/nope')).then(400, anError('VALIDATION_FAILED'));
    await api.when(alice.delete('/api/my-posts/%00')).then(400, anError('VALIDATION_FAILED'));
    await api.when(alice.delete(`/api/my-posts/${id}`, { anything: true })).then(400, anError('VALIDATION_FAILED'));
  });
});
