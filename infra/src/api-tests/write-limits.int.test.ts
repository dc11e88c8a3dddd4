import http from 'node:http';
import { WRITE_LIMITS, type ErrorBody, type WriteKind } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * Abuse limits over the whole stack (gateway, the command service's routes, the limiter's
 * table in PostgreSQL), with small limits through WRITE_LIMITS so that a flood is a few requests.
 * The report limit is met in its long window, the others in their short one.
 */
const LIMITS = {
  post: { burst: { points: 3 } },
  comment: { burst: { points: 4 } },
  vote: { burst: { points: 4 } },
  report: { burst: { points: 10 }, sustained: { points: 3 } },
  profile: { burst: { points: 3 } },
  contact: { burst: { points: 3 } },
};
const NOUNS: Record<WriteKind, string> = { post: 'posts', comment: 'comments', vote: 'votes', report: 'reports', profile: 'profile changes', contact: 'messages', lookup: 'profile lookups' };

let forum: TestForum;
let admin: { id: string; token: string };

beforeAll(async () => {
  forum = await startTestForum({ WRITE_LIMITS: JSON.stringify(LIMITS) });
  admin = await forum.demoAdmin();
});
afterAll(() => forum?.stop());

const post = (token: string, title: string) => forum.api('/api/posts', { method: 'POST', token, json: { title, description: 'Text', tags: [] } });
/** A comment, sent plainly or with a query string (which the route ignores: the same call for the limits and for idempotency). */
const comment = (token: string, postId: string, text: string, via: 'plain' | 'query' = 'plain', headers: Record<string, string> = {}) =>
  forum.api(via === 'plain' ? '/api/comments' : '/api/comments?via=query', { method: 'POST', token, json: { postId, text }, headers });

async function idOf(response: Response | Promise<Response>): Promise<string> {
  const r = await response;
  const body = (await r.json()) as { id: string };
  expect(r.status, JSON.stringify(body)).toBeLessThan(300);
  return body.id;
}

/** Refused for `kind`: 429, Retry-After in whole seconds within the window, the error body saying when. */
async function expectRateLimited(response: Response, kind: WriteKind, window: 'burst' | 'sustained' = 'burst') {
  expect(response.status).toBe(429);
  const retryAfter = response.headers.get('Retry-After');
  expect(retryAfter).toMatch(/^\d+$/);
  const seconds = Number(retryAfter);
  const windowSeconds = WRITE_LIMITS[kind][window].seconds;
  expect(seconds).toBeGreaterThan(window === 'sustained' ? WRITE_LIMITS[kind].burst.seconds : 0);
  expect(seconds).toBeLessThanOrEqual(windowSeconds);
  const { error } = (await response.json()) as ErrorBody;
  expect(error.code).toBe('RATE_LIMITED');
  expect(error.message).toMatch(new RegExp(`^Too many ${NOUNS[kind]}\\. Try again in \\d+ (seconds?|minutes?)\\.$`));
  expect(error.details).toEqual({ retryAfterSeconds: seconds });
}

/** The answers of a flood: how many were accepted, and the refused ones checked. */
async function acceptedOf(answers: Response[], kind: WriteKind, window: 'burst' | 'sustained' = 'burst'): Promise<number> {
  const refused = answers.filter((a) => a.status === 429);
  for (const answer of refused) await expectRateLimited(answer, kind, window);
  const accepted = answers.filter((a) => a.status < 300);
  expect(accepted.length + refused.length, `statuses ${answers.map((a) => a.status).join(',')}`).toBe(answers.length);
  return accepted.length;
}

/** A post by a member of its own, for others to vote and comment on. */
async function postToWriteOn(): Promise<string> {
  const author = await forum.newUser('Author');
  return idOf(post(author.token, 'Something to talk about'));
}

describe('a flood of one kind stops at its limit, answers 429 with Retry-After, and the log holds only the accepted writes', () => {
  it('posts: 8 at once by one member, 3 accepted', async () => {
    const member = await forum.newUser('Poster');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(member.token, `Flood ${i}`)));
    expect(await acceptedOf(answers, 'post')).toBe(3);
    expect(await forum.eventCount({ type: 'PostCreated', actorId: member.id })).toBe(3);
  });

  it('comments: 10 at once, half with a query string, share one limit of 4', async () => {
    const postId = await postToWriteOn();
    const member = await forum.newUser('Commenter');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => comment(member.token, postId, `Flood ${i}`, i % 2 ? 'plain' : 'query')));
    expect(await acceptedOf(answers, 'comment')).toBe(4);
    expect(await forum.eventCount({ type: 'CommentAdded', actorId: member.id })).toBe(4);
  });

  it('votes: 6 on six posts at once (PUT and the spec\'s PATCH), 4 accepted; a vote that changes nothing does not count', async () => {
    const authors = await Promise.all([forum.newUser('Author A'), forum.newUser('Author B')]);
    const postIds: string[] = [];
    for (const author of authors) for (let i = 0; i < 3; i++) postIds.push(await idOf(post(author.token, `To vote on ${i}`)));
    const voter = await forum.newUser('Voter');
    // (a member's first request records them with the forum, which is a write of its own)
    expect((await forum.api('/api/me', { token: voter.token })).status).toBe(200);
    // the vote they already have is no change: answered, nothing appended, nothing counted
    for (let i = 0; i < 3; i++) expect((await forum.api(`/api/posts/${postIds[0]}/vote`, { method: 'PUT', token: voter.token, json: { vote: 'none' } })).status).toBe(200);
    const answers = await Promise.all(
      postIds.map((id, i) =>
        i % 2
          ? forum.api(`/api/posts/${id}/vote`, { method: 'PUT', token: voter.token, json: { vote: 'up' } })
          : forum.api(`/api/posts/${id}/vote`, { method: 'PATCH', token: voter.token, json: { likeChange: 0, dislikeChange: 1 } }),
      ),
    );
    expect(await acceptedOf(answers, 'vote')).toBe(4);
    expect(await forum.eventCount({ type: 'VoteCast', actorId: voter.id })).toBe(4);
  });

  it('reports: 5 at once, 3 accepted in the long window, and Retry-After says when that window ends', async () => {
    const postId = await postToWriteOn();
    const commenters = await Promise.all([forum.newUser('Commenter A'), forum.newUser('Commenter B')]);
    const commentIds: string[] = [];
    for (let i = 0; i < 5; i++) commentIds.push(await idOf(comment(commenters[i % 2]!.token, postId, `Reportable ${i}`)));
    const reporter = await forum.newUser('Reporter');
    const answers = await Promise.all(commentIds.map((id) => forum.api(`/api/comments/${id}/report`, { method: 'POST', token: reporter.token, json: { feedback: 'spam' } })));
    expect(await acceptedOf(answers, 'report', 'sustained')).toBe(3);
    expect(await forum.eventCount({ type: 'CommentReported', actorId: reporter.id })).toBe(3);
  });

  it('profile changes: 5 new display names at once, 3 accepted', async () => {
    const member = await forum.newUser('Changer');
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => forum.api('/api/me', { method: 'PATCH', token: member.token, json: { displayName: `Name ${i}` } })));
    expect(await acceptedOf(answers, 'profile')).toBe(3);
    expect(await forum.eventCount({ type: 'ProfileUpdated', actorId: member.id })).toBe(3);
  });

  it('contact messages: 5 at once from one address, 3 accepted; another address has its own limit', async () => {
    const message = { name: 'Vera Visitor', email: 'vera@example.com', message: 'Do you have a dark mode?' };
    const before = await forum.eventCount({ type: 'ContactMessageReceived', actorId: 'anonymous' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => forum.api('/api/contact', { method: 'POST', json: message })));
    expect(await acceptedOf(answers, 'contact')).toBe(3);
    // signed in or not, the address is what counts
    await expectRateLimited(await forum.api('/api/contact', { method: 'POST', json: message, token: admin.token }), 'contact');
    const other = await postFrom('127.0.0.2', '/api/contact', message);
    expect(other.status).toBe(201);
    expect(await forum.eventCount({ type: 'ContactMessageReceived', actorId: 'anonymous' })).toBe(before + 4);
  });
});

describe('behind a proxy the forum trusts (TRUST_PROXY)', () => {
  let proxied: TestForum;
  beforeAll(async () => {
    proxied = await startTestForum({ WRITE_LIMITS: JSON.stringify(LIMITS), TRUST_PROXY: 'loopback' });
  });
  afterAll(() => proxied?.stop());

  it('counts contact messages by the address the proxy forwarded, not the proxy\'s own', async () => {
    const message = { name: 'Vera Visitor', email: 'vera@example.com', message: 'Do you have a dark mode?' };
    const from = (client: string) => proxied.api('/api/contact', { method: 'POST', json: message, headers: { 'X-Forwarded-For': client } });
    const first = await Promise.all(Array.from({ length: 4 }, () => from('198.51.100.7')));
    expect(first.map((r) => r.status).sort()).toEqual([201, 201, 201, 429]);
    // another client behind the same proxy has its own limit
    expect((await from('203.0.113.9')).status).toBe(201);
  });
});

/** A POST of `body` to the forum sent from the local address `from` (all of 127.0.0.0/8 reaches 127.0.0.1). */
function postFrom(from: string, path: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`http://127.0.0.1:${forum.port}${path}`, { method: 'POST', localAddress: from, headers: { 'Content-Type': 'application/json' } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: text }));
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

describe('what counts', () => {
  it('refused requests (invalid input, a post that does not exist) spend nothing: the member still has the whole limit', async () => {
    const postId = await postToWriteOn();
    const member = await forum.newUser('Clumsy');
    for (let i = 0; i < 5; i++) expect((await comment(member.token, postId, '   ')).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await comment(member.token, crypto.randomUUID(), 'Where did it go?')).status).toBe(404);
    for (let i = 0; i < 4; i++) expect((await comment(member.token, postId, `Now it works ${i}`)).status).toBe(201);
    await expectRateLimited(await comment(member.token, postId, 'One too many'), 'comment');
    expect(await forum.eventCount({ type: 'CommentAdded', actorId: member.id })).toBe(4);
  });

  it('a replay of an accepted command (same Idempotency-Key) answers as before at the limit and counts nothing; a new key is refused', async () => {
    const postId = await postToWriteOn();
    const member = await forum.newUser('Retrier');
    const first = await comment(member.token, postId, 'Sent twice', 'plain', { 'Idempotency-Key': 'once' });
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    for (let i = 0; i < 3; i++) expect((await comment(member.token, postId, `More ${i}`)).status).toBe(201);
    for (const via of ['plain', 'query'] as const) {
      const replay = await comment(member.token, postId, 'Sent twice', via, { 'Idempotency-Key': 'once' });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
      expect(await replay.json()).toEqual(firstBody);
    }
    await expectRateLimited(await comment(member.token, postId, 'Sent twice', 'plain', { 'Idempotency-Key': 'another' }), 'comment');
    expect(await forum.eventCount({ type: 'CommentAdded', actorId: member.id })).toBe(4);
  });

  it('one Idempotency-Key sent by 10 requests at once counts once: all get the one answer, and 3 more comments are accepted', async () => {
    const postId = await postToWriteOn();
    const member = await forum.newUser('Impatient');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => comment(member.token, postId, 'Once', i % 2 ? 'plain' : 'query', { 'Idempotency-Key': 'burst' })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(await Promise.all(answers.map(async (a) => JSON.stringify(await a.json())))).size).toBe(1);
    for (let i = 0; i < 3; i++) expect((await comment(member.token, postId, `After ${i}`)).status).toBe(201);
    await expectRateLimited(await comment(member.token, postId, 'One too many'), 'comment');
    expect(await forum.eventCount({ type: 'CommentAdded', actorId: member.id })).toBe(4);
  });

  it('counts each member on their own: one at the limit does not stop another', async () => {
    const postId = await postToWriteOn();
    const [a, b] = await Promise.all([forum.newUser('Member A'), forum.newUser('Member B')]);
    for (let i = 0; i < 4; i++) expect((await comment(a.token, postId, `A ${i}`)).status).toBe(201);
    await expectRateLimited(await comment(a.token, postId, 'A again'), 'comment');
    expect((await comment(b.token, postId, 'B is fine')).status).toBe(201);
  });

  it('moderation is not limited: an admin removes more comments than the comment limit; an admin\'s own comments are', async () => {
    const postId = await postToWriteOn();
    const spammers = await Promise.all([forum.newUser('Spammer A'), forum.newUser('Spammer B')]);
    const commentIds: string[] = [];
    for (let i = 0; i < 6; i++) commentIds.push(await idOf(comment(spammers[i % 2]!.token, postId, `Spam ${i}`)));
    for (const id of commentIds) expect((await forum.api(`/api/admin/comments/${id}`, { method: 'DELETE', token: admin.token })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await comment(admin.token, postId, `Admin ${i}`)).status).toBe(201);
    await expectRateLimited(await comment(admin.token, postId, 'Admin again'), 'comment');
  });
});
