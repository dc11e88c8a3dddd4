import { ErrorBody, StreamTicket, type Notifications } from '@forum/contracts';
import { StreamTickets } from '@forum/query-service';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { openStream, type SseMessage, type SseStream } from '../testing/sse-client.ts';
import { startQueryServer } from '../testing/query-server.ts';

/**
 * The change stream (GET /api/stream, docs/live.md) against a whole forum over real HTTP: topics,
 * messages only once the read models have them, members' own messages, resume and refetch,
 * heartbeats, tickets, a second query process with its own hub, and shutdown.
 */
const SECRET = 'a-stream-ticket-secret-of-the-tests-0123456789';
const REPLAY_MAX = 8;

let forum: TestForum;
let author: NewUser;
let reader: NewUser;
let admin: { id: string; token: string };

beforeAll(async () => {
  forum = await startTestForum({ PAYMENT_DEMO_DELAY_MS: '0', STREAM_REPLAY_MAX: String(REPLAY_MAX), STREAM_HEARTBEAT_MS: '100', STREAM_TICKET_SECRET: SECRET });
  [author, reader] = [await forum.newUser('Stream Author'), await forum.newUser('Stream Reader')];
  admin = await forum.demoAdmin();
  for (const user of [author, reader]) await forum.register(user.token);
  // members: the free post limit does not stand in the way of the posts below
  for (const user of [author, reader]) await forum.call('PATCH', `/api/users/membership/${user.email}`, { token: admin.token });
}, 60_000);
afterAll(() => forum?.stop());

/** A stream of the forum, closed when the test ends. */
async function stream(query: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const opened = await openStream(forum.url.replace('localhost', '127.0.0.1'), `/api/stream?${query}`, headers);
  onTestFinished(() => opened.close());
  return opened;
}

/** A stream that has its `ready` (every message after it is one it gets). */
async function ready(query: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const opened = await stream(query, headers);
  expect(opened.status, opened.body).toBe(200);
  await opened.next((m) => m.event === 'ready');
  return opened;
}

const post = async (by: NewUser, title: string) =>
  forum.call<{ id: string; position: string }>('POST', '/api/posts', { token: by.token, body: { title, description: 'Live', tags: [] }, expect: 201 });
const comment = async (by: NewUser, postId: string, text: string) =>
  forum.call<{ id: string; position: string }>('POST', '/api/comments', { token: by.token, body: { postId, text }, expect: 201 });
const ticketOf = async (user: { token: string }) => StreamTicket.parse(await forum.call('GET', '/api/stream/ticket', { token: user.token })).ticket;
const about = (event: string, key: string, value: string) => (m: SseMessage) => m.event === event && m.data[key] === value;

describe('GET /api/stream', () => {
  it('answers as a stream: its headers, and `ready` first with the position it starts at as its id', async () => {
    const opened = await stream('topics=posts');
    expect(opened.status).toBe(200);
    expect(opened.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(opened.headers['cache-control']).toBe('no-store');
    expect(opened.headers['x-accel-buffering']).toBe('no');
    // the gateway's headers are kept
    expect(opened.headers['x-content-type-options']).toBe('nosniff');
    const first = await opened.next(() => true);
    expect(first.event).toBe('ready');
    expect(first.id).toMatch(/^\d+\.\d+$/);
    expect(first.data).toEqual({ position: first.id });
  });

  it('HEAD answers at once, without a body', async () => {
    const response = await forum.api('/api/stream?topics=posts', { method: 'HEAD', signal: AbortSignal.timeout(5000) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  });

  it.each([
    ['no topics', ''],
    ['an empty list', 'topics=,'],
    ['an unknown topic', 'topics=everything'],
    ['a post topic without an id', 'topics=post:'],
    ['a post topic of no uuid', 'topics=post:1234'],
    ['too many topics', `topics=${Array.from({ length: 21 }, (_, i) => `post:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join(',')}`],
    ['topics twice', 'topics=posts&topics=announcements'],
  ])('refuses %s: 400 VALIDATION_FAILED', async (_case, query) => {
    const response = await forum.api(`/api/stream?${query}`, { signal: AbortSignal.timeout(5000) });
    expect(response.status).toBe(400);
    expect(ErrorBody.parse(await response.json()).error.code).toBe('VALIDATION_FAILED');
  });
});

describe('topics', () => {
  it("a post's page gets that post's comments and counts, not another post's; the home page gets new posts", async () => {
    const [first, second] = [await post(author, 'First live post'), await post(author, 'Second live post')];
    const [onFirst, onSecond, home] = [await ready(`topics=post:${first.id}`), await ready(`topics=post:${second.id}`), await ready('topics=posts')];

    const added = await comment(reader, first.id, 'Seen live');
    await forum.call('PUT', `/api/posts/${first.id}/vote`, { token: reader.token, body: { vote: 'up' } });
    const arrived = await onFirst.next(about('comment-added', 'commentId', added.id));
    expect(arrived.data).toEqual({ postId: first.id, commentId: added.id, position: added.position });
    expect(arrived.id).toBe(added.position);
    const counts = await onFirst.next((m) => m.event === 'post-counts' && m.data.upVote === 1 && m.data.commentCount === 1);
    expect(counts.data).toMatchObject({ postId: first.id, upVote: 1, downVote: 0, commentCount: 1 });

    // the other post's page gets its own comment, and had nothing of the first's before it
    const other = await comment(reader, second.id, 'Elsewhere');
    await onSecond.next(about('comment-added', 'commentId', other.id));
    expect(onSecond.messages.filter((m) => m.data.postId === first.id)).toEqual([]);

    const third = await post(author, 'Third live post');
    await home.next(about('post-created', 'postId', third.id));
    expect(home.messages.filter((m) => m.event.startsWith('comment') || m.event === 'post-counts')).toEqual([]);
    expect(onFirst.messages.filter((m) => m.event === 'post-created')).toEqual([]);
  });

  it('a message comes once the read models have what it says: a read without waiting shows it', async () => {
    const target = await post(author, 'Read after the message');
    const page = await ready(`topics=post:${target.id}`);
    const added = await comment(reader, target.id, 'Already readable');
    await page.next(about('comment-added', 'commentId', added.id));
    const comments = await forum.call<{ comments: { _id: string }[] }>('GET', `/api/posts/${target.id}/comments?order=newest`);
    expect(comments.comments.map((c) => c._id)).toContain(added.id);
    const counts = await page.next(about('post-counts', 'postId', target.id));
    const read = await forum.call<{ commentCount: number }>('GET', `/api/posts/${target.id}`);
    expect(read.commentCount).toBe(counts.data.commentCount);
  });

  it('a deleted post: post-deleted on its page and on the home page, and no counts for it', async () => {
    const doomed = await post(author, 'Soon gone');
    const [page, home] = [await ready(`topics=post:${doomed.id}`), await ready('topics=posts')];
    await forum.call('DELETE', `/api/my-posts/${doomed.id}`, { token: author.token });
    expect((await page.next((m) => m.event === 'post-deleted')).data).toMatchObject({ postId: doomed.id });
    await home.next(about('post-deleted', 'postId', doomed.id));
    expect(page.messages.filter((m) => m.event === 'post-counts')).toEqual([]);
  });

  it('an announcement reaches everyone following announcements', async () => {
    const bell = await ready('topics=announcements');
    const published = await forum.call<{ id: string }>('POST', '/api/admin/announcements', {
      token: admin.token,
      body: { title: 'Live news', description: 'Streamed' },
      expect: 201,
    });
    await bell.next(about('announcement-published', 'announcementId', published.id));
  });
});

describe("a member's own stream (topic me)", () => {
  it("gets the member's notifications and never another member's", async () => {
    const [mine, theirs] = [await ready(`topics=me,posts&ticket=${await ticketOf(author)}`), await ready(`topics=me&ticket=${await ticketOf(reader)}`)];
    // a bystander's post: their comments on it notify neither of the two (the reader comments last)
    const bystander = await forum.newUser('Stream Bystander');
    const target = await post(bystander, 'Where a warning comes from');
    const rude = await comment(author, target.id, 'A rude comment');
    const warned = await forum.call<{ position: string }>('POST', `/api/admin/warn-user/${encodeURIComponent(author.email)}`, {
      token: admin.token,
      body: { reason: 'Be kind', commentId: rude.id },
      expect: 201,
    });
    await mine.next((m) => m.event === 'notifications');
    // the other member's stream gets their own warning, and nothing before it
    const theirComment = await comment(reader, target.id, 'Another rude comment');
    await forum.call('POST', `/api/admin/warn-user/${encodeURIComponent(reader.email)}`, {
      token: admin.token,
      body: { reason: 'Be kind too', commentId: theirComment.id },
      expect: 201,
    });
    await theirs.next((m) => m.event === 'notifications');
    expect(theirs.messages.filter((m) => m.event === 'notifications')).toHaveLength(1);
    expect(theirs.messages.find((m) => m.event === 'notifications')!.id).not.toBe(warned.position);
    // the notifications read model has the warning when the message comes
    const notifications = await forum.call<{ unread: number }>('GET', '/api/me/notifications', { token: author.token });
    expect(notifications.unread).toBeGreaterThan(0);
  });

  it('tells the members a comment reached (its post’s author and followers), once their notifications have it, and not its author', async () => {
    const [mine, theirs] = [await ready(`topics=me&ticket=${await ticketOf(author)}`), await ready(`topics=me&ticket=${await ticketOf(reader)}`)];
    const asked = await post(author, 'Who answers?');
    const answer = await comment(reader, asked.id, 'I do');
    const told = await mine.next((m) => m.event === 'notifications');
    expect(told.id).toBe(answer.position);
    // the read model has it when the message comes
    const seen = (await (await forum.api('/api/me/notifications', { token: author.token, readYourWrites: false })).json()) as Notifications;
    expect(seen.notifications[0]).toMatchObject({ kind: 'reply', commentId: answer.id });
    // the reader now follows the post (a commenter): the author's answer reaches them; the author hears nothing of it
    const back = await comment(author, asked.id, 'Thanks');
    expect((await theirs.next((m) => m.event === 'notifications')).id).toBe(back.position);
    await forum.call('POST', `/api/admin/warn-user/${encodeURIComponent(author.email)}`, { token: admin.token, body: { reason: 'A marker' }, expect: 201 });
    await mine.next((m) => m.event === 'notifications' && m.id !== told.id);
    expect(mine.messages.filter((m) => m.event === 'notifications').map((m) => m.id)).not.toContain(back.position);
    expect(theirs.messages.filter((m) => m.event === 'notifications')).toHaveLength(1);
  });

  it("tells the member's other devices that they read the announcements, and no one else", async () => {
    const [mine, theirs] = [await ready(`topics=me&ticket=${await ticketOf(author)}`), await ready(`topics=me&ticket=${await ticketOf(reader)}`)];
    const news = await forum.call<{ id: string }>('POST', '/api/admin/announcements', {
      token: admin.token,
      body: { title: 'Read me', description: 'On every device' },
      expect: 201,
    });
    const read = await forum.call<{ position: string }>('POST', '/api/me/announcements/read', { token: author.token, body: { announcementId: news.id } });
    const told = await mine.next((m) => m.event === 'notifications');
    expect(told.data).toEqual({ position: told.id });
    expect(told.id).toBe(read.position);
    // the reader's stream has nothing of it, even once a later message of theirs has come
    const theirComment = await comment(reader, (await post(reader, 'A later change')).id, 'A later comment');
    await forum.call('POST', `/api/admin/warn-user/${encodeURIComponent(reader.email)}`, {
      token: admin.token,
      body: { reason: 'Later', commentId: theirComment.id },
      expect: 201,
    });
    await theirs.next((m) => m.event === 'notifications');
    expect(theirs.messages.filter((m) => m.event === 'notifications')).toHaveLength(1);
  });

  it("#39 edge 18: tells an admin's devices that their own announcement is read (their mark moved), and no one else", async () => {
    const [mine, theirs] = [await ready(`topics=me&ticket=${await ticketOf(admin)}`), await ready(`topics=me&ticket=${await ticketOf(reader)}`)];
    const news = await forum.call<{ id: string; position: string }>('POST', '/api/admin/announcements', {
      token: admin.token,
      body: { title: 'My own news', description: 'Read by me' },
      expect: 201,
    });
    const told = await mine.next((m) => m.event === 'notifications');
    expect(told.id).toBe(news.position);
    // the reader's stream has nothing of it, even once a later message of theirs has come
    const theirComment = await comment(reader, (await post(reader, 'After the news')).id, 'A comment after the news');
    await forum.call('POST', `/api/admin/warn-user/${encodeURIComponent(reader.email)}`, {
      token: admin.token,
      body: { reason: 'After the news', commentId: theirComment.id },
      expect: 201,
    });
    const theirsTold = await theirs.next((m) => m.event === 'notifications');
    expect(theirs.messages.filter((m) => m.event === 'notifications')).toEqual([theirsTold]);
  });

  it('without a ticket, or with a forged or expired one, is refused: 401', async () => {
    const good = await ticketOf(author);
    const [member, expires, signature] = good.split('.') as [string, string, string];
    const forged = [
      `${Buffer.from(reader.id).toString('base64url')}.${expires}.${signature}`, // another member, the same signature
      `${member}.${Number(expires) + 3600}.${signature}`, // a later expiry
      `${member}.${expires}.${signature.slice(0, -2)}AA`,
      new StreamTickets('another-secret-of-at-least-thirty-two-chars').issue(author.id),
      new StreamTickets(SECRET, () => Date.now() - 3600_000).issue(author.id), // expired an hour ago
      'not a ticket',
    ];
    for (const query of ['topics=me', ...forged.map((ticket) => `topics=me&ticket=${encodeURIComponent(ticket)}`)]) {
      const response = await forum.api(`/api/stream?${query}`, { signal: AbortSignal.timeout(5000) });
      expect(response.status, query).toBe(401);
      expect(ErrorBody.parse(await response.json()).error.code).toBe('UNAUTHENTICATED');
    }
    // the good one opens it, also in another process with the same key (see below)
    expect((await ready(`topics=me&ticket=${encodeURIComponent(good)}`)).status).toBe(200);
  });

  it('GET /api/stream/ticket: a signed-in member only, never kept by a cache', async () => {
    const refused = await forum.api('/api/stream/ticket');
    expect(refused.status).toBe(401);
    const answer = await forum.api('/api/stream/ticket', { token: reader.token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(StreamTicket.parse(await answer.json()).expiresInSeconds).toBe(60);
  });

  it('opens for a member the forum has not registered yet: the apps register after sign-in, and the stream does not wait for it', async () => {
    const newcomer = await forum.newUser('Stream Newcomer');
    const own = await ready(`topics=me&ticket=${await ticketOf(newcomer)}`);
    expect(own.ended).toBe(false);
  });

  it("ends when the member's account is erased, and a ticket given before no longer opens it", async () => {
    const doomed = await forum.newUser('Erased Streamer');
    await forum.register(doomed.token);
    const ticket = await ticketOf(doomed);
    const own = await ready(`topics=me&ticket=${ticket}`);
    const publicOnly = await ready('topics=posts');
    await forum.call('DELETE', `/api/admin/users/${doomed.id}`, { token: admin.token, body: { content: 'keep' } });
    await own.until((s) => s.ended);
    expect(publicOnly.ended).toBe(false);
    const again = await stream(`topics=me&ticket=${ticket}`);
    expect(again.status, again.body).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
  });
});

describe('resume and refetch', () => {
  it('a client back with Last-Event-ID gets what it missed (header or ?lastEventId=)', async () => {
    const target = await post(author, 'Missed while away');
    const first = await ready(`topics=post:${target.id}`);
    const left = first.messages[0]!.id!;
    first.close();
    const missed = [await comment(reader, target.id, 'Missed one'), await comment(reader, target.id, 'Missed two')];
    await forum.call('GET', `/api/posts/${target.id}`, { headers: { 'X-Min-Position': missed[1]!.position } });
    for (const back of [await stream(`topics=post:${target.id}`, { 'Last-Event-ID': left }), await stream(`topics=post:${target.id}&lastEventId=${left}`)]) {
      const opening = await back.next((m) => m.event === 'ready');
      expect(opening.id).toBe(left);
      for (const { id } of missed) await back.next(about('comment-added', 'commentId', id));
      await back.next((m) => m.event === 'post-counts' && m.data.commentCount === 2);
      expect(back.messages.filter((m) => m.event === 'refetch')).toEqual([]);
    }
  });

  it('a client too far behind (past the kept messages, or from before the process began) is told to refetch', async () => {
    const target = await post(author, 'Too much missed');
    const first = await ready(`topics=post:${target.id}`);
    const left = first.messages[0]!.id!;
    first.close();
    let last = '';
    for (let i = 0; i < REPLAY_MAX; i++) last = (await comment(reader, target.id, `Comment ${i}`)).position;
    const watcher = await ready(`topics=post:${target.id}`);
    await forum.call('GET', `/api/posts/${target.id}`, { headers: { 'X-Min-Position': last } });
    await watcher.next((m) => m.event === 'post-counts' && m.data.commentCount === REPLAY_MAX);
    for (const from of [left, '1.1']) {
      const back = await stream(`topics=post:${target.id}`, { 'Last-Event-ID': from });
      const [opening, refetch] = [await back.next(() => true), await back.next(() => true, { from: 1 })];
      expect(opening.event).toBe('ready');
      expect(refetch.event).toBe('refetch');
      expect(refetch.id).toBe(opening.id);
    }
  });

  it('a Last-Event-ID that is not a position is taken as none', async () => {
    for (const value of ['garbage', '-1.0', '1.1.1', '99999999999999999999999.1']) {
      const back = await stream('topics=posts', { 'Last-Event-ID': value });
      expect(back.status).toBe(200);
      await back.next((m) => m.event === 'ready');
    }
  });
});

describe('heartbeats', () => {
  it('an idle stream gets a comment line every STREAM_HEARTBEAT_MS', async () => {
    const idle = await ready('topics=announcements');
    await idle.until((s) => s.pings >= 3);
  });
});

describe('two query processes on one database', () => {
  it('each hub serves its own clients from the same log, with the same ids; a ticket of one opens a stream at the other', async () => {
    const second = await startQueryServer(forum, { STREAM_TICKET_SECRET: SECRET });
    onTestFinished(() => second.stop());
    const target = await post(author, 'Seen by two processes');
    const here = await ready(`topics=post:${target.id}`);
    const openThere = await openStream(second.url, `/api/stream?topics=post:${target.id},me&ticket=${await ticketOf(reader)}`);
    onTestFinished(() => openThere.close());
    await openThere.next((m) => m.event === 'ready');
    const added = await comment(reader, target.id, 'Fanned out twice');
    const [a, b] = [await here.next(about('comment-added', 'commentId', added.id)), await openThere.next(about('comment-added', 'commentId', added.id))];
    expect(a).toEqual(b);
  });

  it('a process at its most streams refuses more with 503 BUSY and Retry-After; closing the server ends its streams at once', async () => {
    const second = await startQueryServer(forum, { STREAM_MAX: '1' });
    const held = await openStream(second.url, '/api/stream?topics=posts');
    await held.next((m) => m.event === 'ready');
    const refused = await fetch(`${second.url}/api/stream?topics=posts`, { signal: AbortSignal.timeout(5000) });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(ErrorBody.parse(await refused.json()).error.code).toBe('BUSY');
    const started = performance.now();
    await second.stop();
    expect(performance.now() - started).toBeLessThan(2500);
    await held.until((s) => s.ended, 1000);
  });

  it("one address's streams beyond STREAM_MAX_PER_CLIENT are refused with 429 RATE_LIMITED; a proxy's client counts as itself when trusted", async () => {
    const second = await startQueryServer(forum, { STREAM_MAX_PER_CLIENT: '2', TRUST_PROXY: 'loopback' });
    onTestFinished(() => second.stop());
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    for (let i = 0; i < 2; i++) await (await openStream(second.url, '/api/stream?topics=posts', from('203.0.113.7'))).next((m) => m.event === 'ready');
    const refused = await fetch(`${second.url}/api/stream?topics=posts`, { headers: from('203.0.113.7'), signal: AbortSignal.timeout(5000) });
    expect(refused.status).toBe(429);
    expect(ErrorBody.parse(await refused.json()).error.code).toBe('RATE_LIMITED');
    // another client behind the same proxy still gets its stream
    const other = await openStream(second.url, '/api/stream?topics=posts', from('198.51.100.9'));
    expect(other.status).toBe(200);
    await other.next((m) => m.event === 'ready');
  });
});

describe('shutdown', () => {
  it('stopping the forum ends its streams: nothing waits for them', async () => {
    const open = await ready('topics=posts');
    const started = performance.now();
    await forum.stop();
    forum = undefined as unknown as TestForum;
    expect(performance.now() - started).toBeLessThan(2500);
    expect(open.ended).toBe(true);
  });
});
