import { HEADER_MIN_POSITION, type PostDetail, type PostsPage } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * Visitors' reads are served from memory and revalidated with ETag while the read side's version
 * holds; a read that names a position (X-Min-Position) never gets an answer from before it.
 */
let forum: TestForum;
let author: { id: string; token: string };
let voters: { token: string }[];
beforeAll(async () => {
  forum = await startTestForum();
  author = await forum.newUser('Cache Author');
  voters = await Promise.all(['Voter A', 'Voter B', 'Voter C'].map((name) => forum.newUser(name)));
});
afterAll(() => forum?.stop());

const accepted = async (response: Promise<Response>) => {
  const answer = await response;
  expect(answer.status).toBeLessThan(300);
  return ((await answer.json()) as { position: string }).position;
};

describe("visitors' reads", () => {
  it('carry an ETag; asked again with it, answer 304 while nothing changed', async () => {
    // the read side may still be applying the users made above: a moved version is a new ETag, so try again
    for (let tries = 1; ; tries++) {
      const first = await forum.api('/api/posts');
      expect(first.status).toBe(200);
      const etag = first.headers.get('ETag');
      expect(etag).toMatch(/^W\/".+"$/);
      expect(first.headers.get('Cache-Control')).toBe('no-cache');
      const again = await forum.api('/api/posts', { headers: { 'If-None-Match': etag! } });
      const same = await forum.api('/api/posts');
      const moved = again.status === 200 && again.headers.get('ETag') !== etag;
      if (!moved && same.headers.get('ETag') === etag) {
        expect(again.status).toBe(304);
        expect(await same.json()).toEqual(await first.json());
        return;
      }
      expect(tries, 'the read side never held still for three reads').toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('from memory carry the same bytes and headers as from the database, and the request id; HEAD has no body', async () => {
    // two answers under one version of the read side (it may still be applying the users made above)
    let fresh: Response;
    let kept: Response;
    for (let tries = 1; ; tries++) {
      fresh = await forum.api('/api/tags', { headers: { 'X-Request-Id': 'fresh-read' } });
      kept = await forum.api('/api/tags', { headers: { 'X-Request-Id': 'kept-read' } });
      if (fresh.headers.get('ETag') === kept.headers.get('ETag')) break;
      expect(tries, 'the read side never held still for two reads').toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect([fresh.status, kept.status]).toEqual([200, 200]);
    expect([fresh.headers.get('X-Request-Id'), kept.headers.get('X-Request-Id')]).toEqual(['fresh-read', 'kept-read']);
    for (const name of ['Content-Type', 'ETag', 'Cache-Control', 'Vary']) expect(kept.headers.get(name)).toBe(fresh.headers.get(name));
    const body = await kept.text();
    expect(body).toBe(await fresh.text());
    expect(Number(kept.headers.get('Content-Length'))).toBe(Buffer.byteLength(body));
    const head = await forum.api('/api/tags', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('Content-Length')).toBe(kept.headers.get('Content-Length'));
    expect(await head.text()).toBe('');
  });

  it('are never older than a position the visitor asks for: each vote shows at once, ETag or not', async () => {
    const created = await forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Counted votes', description: 'x', tags: [] } });
    const { id, position } = (await created.json()) as { id: string; position: string };
    let read = await forum.api(`/api/posts/${id}`, { headers: { [HEADER_MIN_POSITION]: position } });
    let etag = read.headers.get('ETag')!;
    expect(((await read.json()) as PostDetail).upVote).toBe(0);
    for (const [i, voter] of voters.entries()) {
      const voted = await accepted(forum.api(`/api/posts/${id}/vote`, { method: 'PUT', token: voter.token, json: { vote: 'up' } }));
      // the same visitor, revalidating with what it has: the vote is there, not a 304
      read = await forum.api(`/api/posts/${id}`, { headers: { [HEADER_MIN_POSITION]: voted, 'If-None-Match': etag } });
      expect(read.status).toBe(200);
      expect(read.headers.get('ETag')).not.toBe(etag);
      etag = read.headers.get('ETag')!;
      expect(((await read.json()) as PostDetail).upVote).toBe(i + 1);
      // another visitor, from memory or not: the same
      const other = await forum.api(`/api/posts/${id}`, { headers: { [HEADER_MIN_POSITION]: voted } });
      expect(((await other.json()) as PostDetail).upVote).toBe(i + 1);
      const list = (await (await forum.api('/api/posts', { headers: { [HEADER_MIN_POSITION]: voted } })).json()) as PostsPage;
      expect(list.posts.find((post) => post._id === id)!.upVote).toBe(i + 1);
    }
  });

  it('are not kept for signed-in readers, nor for reads that need a token', async () => {
    const { posts } = (await (await forum.api('/api/posts')).json()) as PostsPage;
    const signedIn = await forum.api(`/api/posts/${posts[0]!._id}`, { token: voters[0]!.token });
    expect(signedIn.headers.get('ETag')).toBeNull();
    expect((await signedIn.json()) as PostDetail).toHaveProperty('myVote');
    const visitor = await forum.api(`/api/posts/${posts[0]!._id}`);
    expect((await visitor.json()) as PostDetail).not.toHaveProperty('myVote');
    const admin = await forum.api('/api/admin/stats', { headers: { 'If-None-Match': visitor.headers.get('ETag')! } });
    expect(admin.status).toBe(401);
  });

  it('keep the headers that belong to the answer (the spec’s tag search and its X-Total-Count)', async () => {
    const first = await forum.api('/api/posts/search?tag=react');
    const second = await forum.api('/api/posts/search?tag=react');
    expect(second.headers.get('X-Total-Count')).toBe(first.headers.get('X-Total-Count'));
    expect(second.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await second.json()).toEqual(await first.json());
  });
});
