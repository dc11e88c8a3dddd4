import { WRITE_LIMITS, type WriteKind } from '@forum/contracts';
import { TrustProxy } from '@forum/platform';
import { describe, expect, it } from 'vitest';
import { createMemoryWriteLimits } from '../limits/memory.ts';
import { writeLimitSettings } from '../limits/settings.ts';
import { anAdmin, commandApiSpec, member, registered, visitor, type Member, type Outcome } from '../testing/index.ts';
import { matching } from '@forum/platform/testing';

/**
 * The write limits as the routes answer them (docs/security/abuse-limits.md), counted by
 * rate-limiter-flexible in memory with the windows and rules of the PostgreSQL limits (limits/windows.ts),
 * small through WRITE_LIMITS so that a flood is a few requests. The report limit is met in its long
 * window, the others in their short one. Counting in PostgreSQL for several processes is in
 * infra/src/api-tests/write-limits*.int.test.ts.
 */
const LIMITS = {
  post: { burst: { points: 3 } },
  comment: { burst: { points: 4 } },
  edit: { burst: { points: 3 } },
  vote: { burst: { points: 4 } },
  report: { burst: { points: 10 }, sustained: { points: 3 } },
  profile: { burst: { points: 3 } },
  contact: { burst: { points: 3 } },
  read: { burst: { points: 4 } },
  preferences: { burst: { points: 3 } },
};
const limits = () => writeLimitSettings.WRITE_LIMITS.parse(JSON.stringify(LIMITS))!;
const NOUNS: Record<WriteKind, string> = {
  post: 'posts',
  comment: 'comments',
  edit: 'edits',
  vote: 'votes',
  follow: 'follows',
  report: 'reports',
  profile: 'profile changes',
  contact: 'messages',
  lookup: 'profile lookups',
  read: 'marks as read',
  preferences: 'notification settings changes',
};
const message = { name: 'Vera Visitor', email: 'vera@example.com', message: 'Do you have a dark mode?' };

/**
 * Refused for `kind`: 429, Retry-After in whole seconds within the window, the error body saying when;
 * a request sent alone appended nothing (one of a flood sees the others' events in the log after it).
 */
function expectRateLimited(outcome: Outcome, kind: WriteKind, window: 'burst' | 'sustained' = 'burst', alone = true) {
  expect(outcome.status, JSON.stringify(outcome.body)).toBe(429);
  const seconds = Number(outcome.headers['retry-after']);
  expect(String(outcome.headers['retry-after'])).toMatch(/^\d+$/);
  expect(seconds).toBeGreaterThan(window === 'sustained' ? WRITE_LIMITS[kind].burst.seconds : 0);
  expect(seconds).toBeLessThanOrEqual(WRITE_LIMITS[kind][window].seconds);
  expect(outcome.body).toEqual({
    error: {
      code: 'RATE_LIMITED',
      message: matching(new RegExp(`^Too many ${NOUNS[kind]}\\. Try again in \\d+ (seconds?|minutes?)\\.$`)),
      details: { retryAfterSeconds: seconds },
    },
  });
  if (alone) expect(outcome.appended).toEqual([]);
}

/** How many of a flood's answers were accepted; the refused ones checked. */
function acceptedOf(outcomes: readonly Outcome[], kind: WriteKind, window: 'burst' | 'sustained' = 'burst'): number {
  const refused = outcomes.filter((o) => o.status === 429);
  for (const outcome of refused) expectRateLimited(outcome, kind, window, false);
  const accepted = outcomes.filter((o) => o.status < 300);
  expect(accepted.length + refused.length, `statuses ${outcomes.map((o) => o.status).join(',')}`).toBe(outcomes.length);
  return accepted.length;
}

describe('with the write limits', () => {
  const api = commandApiSpec({ limits: () => createMemoryWriteLimits(limits()) });
  const author = member('Author');
  const other = member('Other Author');
  const flooder = member('Flooder');
  const ada = member('Ada Admin');

  const count = async (type: string, actor: Member) => (await api.log()).filter((e) => e.type === type && e.metadata.actorId === actor.id).length;
  const postToWriteOn = async (by = author) =>
    (await api.given(by.post('/api/posts', { title: 'Something to talk about', description: 'Text', tags: [] })))[0].id;
  const comment = (who: Member, postId: string, text: string, via: 'plain' | 'query' = 'plain', headers: Record<string, string> = {}) =>
    who.post(via === 'plain' ? '/api/comments' : '/api/comments?via=query', { postId, text }, { headers });

  describe('a flood of one kind stops at its limit, answers 429 with Retry-After, and the log holds only the accepted writes', () => {
    it('posts: 8 at once by one member, 3 accepted', async () => {
      await api.given(registered(flooder));
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) => api.when(flooder.post('/api/posts', { title: `Flood ${i}`, description: 'Text', tags: [] })).outcome),
      );
      expect(acceptedOf(outcomes, 'post')).toBe(3);
      expect(await count('PostCreated', flooder)).toBe(3);
    });

    it('comments: 10 at once, half with a query string, share one limit of 4', async () => {
      const postId = await postToWriteOn();
      await api.given(registered(flooder));
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => api.when(comment(flooder, postId, `Flood ${i}`, i % 2 ? 'plain' : 'query')).outcome),
      );
      expect(acceptedOf(outcomes, 'comment')).toBe(4);
      expect(await count('CommentAdded', flooder)).toBe(4);
    });

    it("votes: 6 on six posts at once (PUT and the spec's PATCH), 4 accepted; a vote that changes nothing does not count", async () => {
      const postIds: string[] = [];
      for (const by of [author, other]) for (let i = 0; i < 3; i++) postIds.push(await postToWriteOn(by));
      await api.given(registered(flooder));
      for (let i = 0; i < 3; i++) await api.when(flooder.put(`/api/posts/${postIds[0]}/vote`, { vote: 'none' })).then(200);
      const outcomes = await Promise.all(
        postIds.map(
          (id, i) =>
            api.when(i % 2 ? flooder.put(`/api/posts/${id}/vote`, { vote: 'up' }) : flooder.patch(`/api/posts/${id}/vote`, { likeChange: 0, dislikeChange: 1 }))
              .outcome,
        ),
      );
      expect(acceptedOf(outcomes, 'vote')).toBe(4);
      expect(await count('VoteCast', flooder)).toBe(4);
    });

    it('reports: 5 at once, 3 accepted in the long window, and Retry-After says when that window ends', async () => {
      const postId = await postToWriteOn();
      const commenters = [member('Commenter A'), member('Commenter B')];
      const commentIds: string[] = [];
      for (let i = 0; i < 5; i++) commentIds.push((await api.given(comment(commenters[i % 2]!, postId, `Reportable ${i}`)))[0].id);
      await api.given(registered(flooder));
      const outcomes = await Promise.all(commentIds.map((id) => api.when(flooder.post(`/api/comments/${id}/report`, { feedback: 'spam' })).outcome));
      expect(acceptedOf(outcomes, 'report', 'sustained')).toBe(3);
      expect(await count('CommentReported', flooder)).toBe(3);
    });

    it('edits: of posts and comments, one limit of 3; an edit that changes nothing or is refused does not count', async () => {
      const postId = await postToWriteOn(flooder);
      const [{ id: commentId }] = await api.given(comment(flooder, postId, 'First words'));
      const [{ id: othersPost }] = await api.given(other.post('/api/posts', { title: 'Not yours', description: 'Text', tags: [] }));
      for (let i = 0; i < 3; i++) await api.when(flooder.patch(`/api/posts/${postId}`, { title: 'Something to talk about' })).then(200, { id: postId }, []);
      for (let i = 0; i < 3; i++) await api.when(flooder.patch(`/api/posts/${othersPost}`, { title: 'Mine' })).then(403);
      await api.when(flooder.patch(`/api/posts/${postId}`, { title: 'Edited once' })).then(200);
      await api.when(flooder.patch(`/api/comments/${commentId}`, { text: 'Edited twice' })).then(200);
      await api.when(flooder.patch(`/api/posts/${postId}`, { description: 'Edited three times' })).then(200);
      expectRateLimited(await api.when(flooder.patch(`/api/comments/${commentId}`, { text: 'One too many' })).outcome, 'edit');
      expect((await count('PostEdited', flooder)) + (await count('CommentEdited', flooder))).toBe(3);
    });

    it('profile changes: 5 new display names at once, 3 accepted', async () => {
      await api.given(registered(flooder));
      const outcomes = await Promise.all(Array.from({ length: 5 }, (_, i) => api.when(flooder.patch('/api/me', { displayName: `Name ${i}` })).outcome));
      expect(acceptedOf(outcomes, 'profile')).toBe(3);
      expect(await count('ProfileUpdated', flooder)).toBe(3);
    });

    it('notification settings: 5 changes at once, 3 accepted; choosing what is chosen already appends nothing and counts nothing', async () => {
      await api.given(registered(flooder));
      const changes = [{ reply: 'off' }, { mention: 'off' }, { 'followed-post': 'off' }, { 'followed-tag': 'off' }, { warning: 'app' }];
      const outcomes = await Promise.all(changes.map((change) => api.when(flooder.put('/api/me/notification-preferences', change)).outcome));
      expect(acceptedOf(outcomes, 'preferences')).toBe(3);
      expect(await count('NotificationPreferencesChanged', flooder)).toBe(3);
      expectRateLimited(await api.when(flooder.put('/api/me/notification-preferences', { reply: 'digest' })).outcome, 'preferences');

      const settler = member('Settler');
      await api.given(registered(settler));
      const choose = (delivery: string) => settler.put('/api/me/notification-preferences', { reply: delivery });
      for (let i = 0; i < 5; i++) await api.when(choose('email')).then(200);
      for (const delivery of ['app', 'off', 'digest']) await api.when(choose(delivery)).then(200);
      expectRateLimited(await api.when(choose('email')).outcome, 'preferences');
      expect(await count('NotificationPreferencesChanged', settler)).toBe(3);
    });

    it('marks as read: 6 of new ids at once, 4 accepted; marking ids already read again appends nothing and counts nothing', async () => {
      await api.given(registered(flooder));
      const read = (ids: string[]) => flooder.post('/api/me/notifications/read', { ids });
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => api.when(read([crypto.randomUUID(), crypto.randomUUID()])).outcome));
      expect(acceptedOf(outcomes, 'read')).toBe(4);
      expect(await count('NotificationsRead', flooder)).toBe(4);
      expectRateLimited(await api.when(read([crypto.randomUUID()])).outcome, 'read');

      const reader = member('Reader');
      await api.given(registered(reader));
      const known = [crypto.randomUUID(), crypto.randomUUID()];
      await api.when(reader.post('/api/me/notifications/read', { ids: known })).then(200);
      for (let i = 0; i < 5; i++) await api.when(reader.post('/api/me/notifications/read', { ids: known })).then(200, { id: reader.id }, []);
      for (let i = 0; i < 3; i++) await api.when(reader.post('/api/me/notifications/read', { ids: [crypto.randomUUID()] })).then(200);
      expectRateLimited(await api.when(reader.post('/api/me/notifications/read', { ids: [crypto.randomUUID()] })).outcome, 'read');
    });

    it('contact messages: 5 at once from one address, 3 accepted; signed in or not, the address counts; another address has its own limit', async () => {
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => api.when(visitor.post('/api/contact', message)).outcome));
      expect(acceptedOf(outcomes, 'contact')).toBe(3);
      expectRateLimited(await api.when(flooder.post('/api/contact', message)).outcome, 'contact');
      await api.when(visitor.post('/api/contact', message, { remoteAddress: '127.0.0.2' })).then(201);
      expect((await api.log()).filter((e) => e.type === 'ContactMessageReceived')).toHaveLength(4);
    });
  });

  describe('what counts', () => {
    it('refused requests (invalid input, a post that does not exist) spend nothing: the member still has the whole limit', async () => {
      const postId = await postToWriteOn();
      await api.given(registered(flooder));
      for (let i = 0; i < 5; i++) await api.when(comment(flooder, postId, '   ')).then(400);
      for (let i = 0; i < 5; i++) await api.when(comment(flooder, crypto.randomUUID(), 'Where did it go?')).then(404);
      for (let i = 0; i < 4; i++) await api.when(comment(flooder, postId, `Now it works ${i}`)).then(201);
      expectRateLimited(await api.when(comment(flooder, postId, 'One too many')).outcome, 'comment');
    });

    it('a replay of an accepted command (same Idempotency-Key) answers as before at the limit and counts nothing; a new key is refused', async () => {
      const postId = await postToWriteOn();
      const first = await api.when(comment(flooder, postId, 'Sent twice', 'plain', { 'Idempotency-Key': 'once' })).then(201);
      for (let i = 0; i < 3; i++) await api.when(comment(flooder, postId, `More ${i}`)).then(201);
      for (const via of ['plain', 'query'] as const) {
        const replay = await api.when(comment(flooder, postId, 'Sent twice', via, { 'Idempotency-Key': 'once' })).then(201, first.body, []);
        expect(replay.headers['idempotent-replayed']).toBe('true');
      }
      expectRateLimited(await api.when(comment(flooder, postId, 'Sent twice', 'plain', { 'Idempotency-Key': 'another' })).outcome, 'comment');
      expect(await count('CommentAdded', flooder)).toBe(4);
    });

    it('one Idempotency-Key sent by 10 requests at once counts once: all get the one answer, and 3 more comments are accepted', async () => {
      const postId = await postToWriteOn();
      await api.given(registered(flooder));
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => api.when(comment(flooder, postId, 'Once', i % 2 ? 'plain' : 'query', { 'Idempotency-Key': 'burst' })).outcome),
      );
      expect(outcomes.map((o) => o.status)).toEqual(Array(10).fill(201));
      expect(new Set(outcomes.map((o) => JSON.stringify(o.body))).size).toBe(1);
      for (let i = 0; i < 3; i++) await api.when(comment(flooder, postId, `After ${i}`)).then(201);
      expectRateLimited(await api.when(comment(flooder, postId, 'One too many')).outcome, 'comment');
      expect(await count('CommentAdded', flooder)).toBe(4);
    });

    it('counts each member on their own: one at the limit does not stop another', async () => {
      const postId = await postToWriteOn();
      for (let i = 0; i < 4; i++) await api.when(comment(flooder, postId, `A ${i}`)).then(201);
      expectRateLimited(await api.when(comment(flooder, postId, 'A again')).outcome, 'comment');
      await api.when(comment(other, postId, 'Other is fine')).then(201);
    });

    it("moderation is not limited: an admin removes more comments than the comment limit; an admin's own comments are", async () => {
      await api.given(anAdmin(ada));
      const postId = await postToWriteOn();
      const spammers = [member('Spammer A'), member('Spammer B')];
      const commentIds: string[] = [];
      for (let i = 0; i < 6; i++) commentIds.push((await api.given(comment(spammers[i % 2]!, postId, `Spam ${i}`)))[0].id);
      for (const id of commentIds) await api.when(ada.delete(`/api/admin/comments/${id}`)).then(200);
      for (let i = 0; i < 4; i++) await api.when(comment(ada, postId, `Admin ${i}`)).then(201);
      expectRateLimited(await api.when(comment(ada, postId, 'Admin again')).outcome, 'comment');
    });
  });
});

describe('behind a proxy the forum trusts (TRUST_PROXY)', () => {
  const api = commandApiSpec({ limits: () => createMemoryWriteLimits(limits()), trustProxy: TrustProxy.parse('loopback') });

  it("counts contact messages by the address the proxy forwarded, not the proxy's own", async () => {
    const from = (client: string) => visitor.post('/api/contact', message, { headers: { 'X-Forwarded-For': client } });
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => api.when(from('198.51.100.7')).outcome));
    expect(outcomes.map((o) => o.status).sort()).toEqual([201, 201, 201, 429]);
    await api.when(from('203.0.113.9')).then(201);
  });
});
