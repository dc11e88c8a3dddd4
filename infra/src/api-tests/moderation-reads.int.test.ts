import { randomUUID } from 'node:crypto';
import {
  commentStream,
  HEADER_MIN_POSITION,
  notificationsStream,
  PINS_STREAM,
  positionToken,
  postReportStream,
  postStream,
  userStream,
  type AdminUsersPage,
  type AuditPage,
  type CommentItem,
  type Me,
  type PostDetail,
  type PostsPage,
  type ReportQueue,
  type SearchPage,
} from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { openStream, type SseMessage } from '../testing/sse-client.ts';

/**
 * The read side of moderation (issue #43): staff's events appended to the log as the command side
 * writes them, read through the whole forum: who sees a hidden post or comment (and that no cache
 * serves it to anyone else), pins on the home page's first page, locks, the moderators' queue,
 * the users list without emails for moderators, and a suspension in GET /api/me against the clock.
 */
let forum: TestForum;
let author: NewUser;
let reader: NewUser;
let moderator: NewUser;
let admin: { id: string; token: string };

/** Events appended as the command side writes them (the actor: the first's `by`); answers the read position after them. */
async function appended(streamId: string, type: string, data: Record<string, unknown>, actorId = moderator.id): Promise<string> {
  const metadata = { actorId, correlationId: randomUUID(), causationId: null, requestId: null, schemaVersion: 1 };
  return positionToken((await forum.store.append([{ streamId, expectedVersion: 'any', events: [{ type, data, metadata }] }])).lastPosition);
}
const at = (position: string, token?: string) => ({ headers: { [HEADER_MIN_POSITION]: position }, ...(token && { token }) });
const now = () => new Date().toISOString();
const visitorRead = (path: string, position: string) => forum.api(path, { headers: { [HEADER_MIN_POSITION]: position }, readYourWrites: false });

beforeAll(async () => {
  forum = await startTestForum();
  [author, reader, moderator] = [await forum.newUser('Kestrel Author'), await forum.newUser('Kestrel Reader'), await forum.newUser('Kestrel Moderator')];
  admin = await forum.demoAdmin();
  for (const user of [author, reader, moderator]) await forum.register(user.token);
  await forum.call('PATCH', `/api/users/membership/${author.email}`, { token: admin.token });
  await appended(userStream(moderator.id), 'ModeratorRoleGranted', { userId: moderator.id, grantedBy: admin.id, grantedAt: now() }, admin.id);
}, 60_000);
afterAll(() => forum?.stop());

const post = (title: string, token = author.token) =>
  forum.call<{ id: string; position: string }>('POST', '/api/posts', {
    token,
    body: { title, description: `${title}, told at length`, tags: [] },
    expect: 201,
  });

describe('a hidden post', () => {
  it('answers 404 to visitors and members (a visitor’s answer kept before is not served), and its author and staff with its mark; it leaves the lists and the search; shown again, it is back', async () => {
    const written = await post('Kestrels hovering');
    const path = `/api/posts/${written.id}`;
    // a visitor's read before: kept in the visitors' memory
    expect((await visitorRead(path, written.position)).status).toBe(200);
    const hidden = await appended(postStream(written.id), 'PostHidden', {
      postId: written.id,
      authorId: author.id,
      reason: 'Off topic',
      hiddenBy: moderator.id,
      hiddenAt: now(),
    });
    expect((await visitorRead(path, hidden)).status).toBe(404);
    expect((await visitorRead(path, hidden)).status).toBe(404);
    expect((await visitorRead(`/api/posts/${written.id}/comments`, hidden)).status).toBe(404);
    await forum.call('GET', path, { ...at(hidden, reader.token), expect: 404 });
    for (const token of [author.token, moderator.token, admin.token]) {
      const seen = await forum.call<PostDetail>('GET', path, at(hidden, token));
      expect(seen.hidden).toEqual({ reason: 'Off topic', hiddenAt: expect.any(String) as string });
    }
    // after those signed-in reads, a visitor still gets nothing
    expect((await visitorRead(path, hidden)).status).toBe(404);
    const home = await forum.call<PostsPage>('GET', '/api/posts?page=1', at(hidden));
    expect(home.posts.map((p) => p._id)).not.toContain(written.id);
    const search = await forum.call<SearchPage>('GET', '/api/posts/search?q=kestrels&page=1', at(hidden));
    expect(search.posts.map((p) => p._id)).not.toContain(written.id);
    // the staff log names who hid it, whose post, and why (a moderator reads it too)
    const log = await forum.call<AuditPage>('GET', '/api/admin/audit?type=PostHidden', at(hidden, moderator.token));
    expect(log.entries.find((entry) => entry.target.id === written.id)).toMatchObject({
      actor: { id: moderator.id, name: moderator.name, email: '' },
      summary: `Hid a post by ${author.name}: Off topic`,
    });
    const mine = await forum.call<PostDetail[]>('GET', `/api/my-posts/${author.email}`, at(hidden, author.token));
    expect(mine.find((p) => p._id === written.id)?.hidden?.reason).toBe('Off topic');

    const shown = await appended(postStream(written.id), 'PostUnhidden', {
      postId: written.id,
      authorId: author.id,
      unhiddenBy: moderator.id,
      unhiddenAt: now(),
    });
    expect((await visitorRead(path, shown)).status).toBe(200);
    expect((await forum.call<PostsPage>('GET', '/api/posts?page=1', at(shown))).posts.map((p) => p._id)).toContain(written.id);
  });
});

describe('a hidden comment', () => {
  it('is listed to its author and staff with its mark, to nobody else, and a visitor’s kept page does not hold it', async () => {
    const written = await post('Kestrels nesting');
    const comment = await forum.call<{ id: string; position: string }>('POST', '/api/comments', {
      token: reader.token,
      body: { postId: written.id, text: 'Nesting in the old mill' },
      expect: 201,
    });
    const path = `/api/comments/${written.id}`;
    expect(((await (await visitorRead(path, comment.position)).json()) as CommentItem[]).map((c) => c._id)).toEqual([comment.id]);
    const hidden = await appended(commentStream(comment.id), 'CommentHidden', {
      commentId: comment.id,
      postId: written.id,
      authorId: reader.id,
      reason: 'Rude',
      hiddenBy: moderator.id,
      hiddenAt: now(),
    });
    expect(await (await visitorRead(path, hidden)).json()).toEqual([]);
    expect(await forum.call<CommentItem[]>('GET', path, at(hidden, author.token))).toEqual([]);
    for (const token of [reader.token, moderator.token]) {
      const [seen] = await forum.call<CommentItem[]>('GET', path, at(hidden, token));
      expect(seen).toMatchObject({ _id: comment.id, hidden: { reason: 'Rude' } });
    }
    expect(await (await visitorRead(path, hidden)).json()).toEqual([]);
  });
});

describe('pinned and locked posts', () => {
  it('the first page shows the pinned apart, marked, newest pin first, and no page lists them; a lock shows with its reason', async () => {
    const [first, second] = [await post('Kestrel rules'), await post('Kestrel welcome')];
    await appended(PINS_STREAM, 'PostPinned', { postId: first.id, pinnedBy: moderator.id, pinnedAt: now() });
    const pinned = await appended(PINS_STREAM, 'PostPinned', {
      postId: second.id,
      pinnedBy: moderator.id,
      pinnedAt: new Date(Date.now() + 1000).toISOString(),
    });
    const locked = await appended(postStream(first.id), 'PostLocked', { postId: first.id, reason: 'Read only', lockedBy: moderator.id, lockedAt: now() });
    const page1 = await forum.call<PostsPage>('GET', '/api/posts?page=1&sort=popularity', at(pinned));
    expect(page1.pinned?.map((p) => [p._id, p.pinned])).toEqual([
      [second.id, true],
      [first.id, true],
    ]);
    const page2 = await forum.call<PostsPage>('GET', '/api/posts?page=2', at(pinned));
    expect(page2.pinned).toBeUndefined();
    for (const page of [page1, page2]) expect(page.posts.map((p) => p._id)).not.toContain(first.id);
    const detail = await forum.call<PostDetail>('GET', `/api/posts/${first.id}`, at(locked));
    expect(detail).toMatchObject({ pinned: true, locked: true, lockReason: 'Read only' });
    const unpinned = await appended(PINS_STREAM, 'PostUnpinned', { postId: first.id, unpinnedBy: moderator.id, unpinnedAt: now() });
    expect((await forum.call<PostsPage>('GET', '/api/posts?page=1', at(unpinned))).pinned?.map((p) => p._id)).toEqual([second.id]);
    await appended(PINS_STREAM, 'PostUnpinned', { postId: second.id, unpinnedBy: moderator.id, unpinnedAt: now() });
  });
});

describe('the moderators’ queue (GET /api/admin/reports)', () => {
  const report = (postId: string, reporter: NewUser) =>
    appended(
      postReportStream(postId, reporter.id),
      'PostReported',
      { postId, reporterId: reporter.id, reporterName: reporter.name, reporterEmail: reporter.email, reporterPhoto: '', feedback: 'spam', reportedAt: now() },
      reporter.id,
    );
  const queue = (status: 'open' | 'handled', position: string, token = moderator.token) =>
    forum.call<ReportQueue>('GET', `/api/admin/reports?status=${status}`, at(position, token));

  it('lists among the handled a post or comment staff hid without a report, with none, until it is shown again', async () => {
    const written = await post('Kestrel off topic');
    const said = await forum.call<{ id: string; position: string }>('POST', '/api/comments', {
      token: reader.token,
      body: { postId: written.id, text: 'Kestrel chatter' },
      expect: 201,
    });
    await appended(postStream(written.id), 'PostHidden', {
      postId: written.id,
      authorId: author.id,
      reason: 'Off topic',
      hiddenBy: moderator.id,
      hiddenAt: now(),
    });
    const hidden = await appended(commentStream(said.id), 'CommentHidden', {
      commentId: said.id,
      postId: written.id,
      authorId: reader.id,
      reason: 'Chatter',
      hiddenBy: moderator.id,
      hiddenAt: now(),
    });
    expect((await queue('open', hidden)).items.map((item) => item._id)).not.toContain(written.id);
    const handled = (await queue('handled', hidden)).items.filter((item) => item._id === written.id || item._id === said.id);
    expect(handled).toMatchObject([
      {
        kind: 'comment',
        _id: said.id,
        reports: [],
        firstReportedAt: null,
        hidden: true,
        handled: { action: 'hidden', byName: moderator.name, reason: 'Chatter' },
      },
      {
        kind: 'post',
        _id: written.id,
        reports: [],
        firstReportedAt: null,
        hidden: true,
        handled: { action: 'hidden', byName: moderator.name, reason: 'Off topic' },
      },
    ]);
    const shown = await appended(postStream(written.id), 'PostUnhidden', {
      postId: written.id,
      authorId: author.id,
      unhiddenBy: moderator.id,
      unhiddenAt: now(),
    });
    expect((await queue('handled', shown)).items.find((item) => item._id === written.id)?.hidden).toBe(false);
  });

  it('answers 401 to visitors and 403 to members', async () => {
    await forum.call('GET', '/api/admin/reports', { expect: 401 });
    await forum.call('GET', '/api/admin/reports', { token: reader.token, expect: 403 });
  });

  it.each([
    [
      'dismissed',
      (id: string) => appended(postStream(id), 'ReportsDismissed', { item: { kind: 'post', id, postId: id }, dismissedBy: moderator.id, dismissedAt: now() }),
    ],
    [
      'hidden',
      (id: string) => appended(postStream(id), 'PostHidden', { postId: id, authorId: author.id, reason: 'Spam', hiddenBy: moderator.id, hiddenAt: now() }),
    ],
    ['deleted', (id: string) => appended(postStream(id), 'PostDeleted', { postId: id, authorId: author.id, deletedBy: moderator.id, deletedAt: now() })],
    [
      'warned',
      (id: string) =>
        appended(notificationsStream(author.id), 'UserWarned', {
          warningId: randomUUID(),
          userId: author.id,
          reason: 'Spam',
          postId: id,
          warnedBy: moderator.id,
          warnedAt: now(),
        }),
    ],
    [
      'suspended',
      (id: string) =>
        appended(userStream(author.id), 'MemberSuspended', {
          userId: author.id,
          reason: 'Spam',
          until: new Date(Date.now() - 1000).toISOString(),
          suspendedBy: moderator.id,
          suspendedAt: now(),
          about: { kind: 'post', id, postId: id },
        }),
    ],
  ] as const)('a reported post %s leaves the open rows for the handled ones; a later report opens it again', async (action, handle) => {
    const written = await post(`Kestrel spam ${action}`);
    const reported = await report(written.id, reader);
    const open = await queue('open', reported);
    const row = open.items.find((item) => item._id === written.id);
    expect(row).toMatchObject({ kind: 'post', postTitle: `Kestrel spam ${action}`, author: { _id: author.id, name: author.name } });
    expect(row?.author.email).toBeUndefined();
    expect(row?.reports).toEqual([
      { reporter: { _id: reader.id, name: reader.name, photoURL: expect.any(String) as string }, feedback: 'spam', reportedAt: expect.any(String) as string },
    ]);
    // an admin sees the emails
    const asAdmin = (await queue('open', reported, admin.token)).items.find((item) => item._id === written.id);
    expect(asAdmin?.author.email).toBe(author.email);

    const handled = await handle(written.id);
    expect((await queue('open', handled)).items.map((item) => item._id)).not.toContain(written.id);
    const done = (await queue('handled', handled)).items.find((item) => item._id === written.id);
    expect(done?.handled).toMatchObject({ action, byName: moderator.name });
    if (action === 'deleted') return;
    // a later report opens it again, with that report alone
    const again = await report(written.id, moderator);
    const reopened = (await queue('open', again)).items.find((item) => item._id === written.id);
    expect(reopened?.reports.map((r) => r.reporter._id)).toEqual([moderator.id]);
    expect(reopened?.handled).toBeUndefined();
    // the reader reported it (a hidden post is not there for them)
    const asReader = await forum.call<PostDetail>('GET', `/api/posts/${written.id}`, { ...at(again, reader.token), expect: action === 'hidden' ? 404 : 200 });
    if (action !== 'hidden') expect(asReader.reportedByMe).toBe(true);
  });
});

describe('the users list and a suspension', () => {
  it('moderators read the users list with roles and suspensions but no emails; members get 403, visitors 401', async () => {
    const suspended = await appended(userStream(reader.id), 'MemberSuspended', {
      userId: reader.id,
      reason: 'Cooling off',
      until: new Date(Date.now() + 86_400_000).toISOString(),
      suspendedBy: moderator.id,
      suspendedAt: now(),
    });
    const page = await forum.call<AdminUsersPage>('GET', '/api/admin/users?search=Kestrel', at(suspended, moderator.token));
    expect(page.users.every((user) => user.email === undefined)).toBe(true);
    expect(page.users.find((user) => user._id === moderator.id)?.role).toBe('moderator');
    expect(page.users.find((user) => user._id === reader.id)?.suspension).toMatchObject({ reason: 'Cooling off' });
    const asAdmin = await forum.call<AdminUsersPage>('GET', '/api/admin/users?search=Kestrel', at(suspended, admin.token));
    expect(asAdmin.users.find((user) => user._id === reader.id)?.email).toBe(reader.email);
    await forum.call('GET', '/api/admin/users', { token: author.token, expect: 403 });
    await forum.call('GET', '/api/admin/users', { expect: 401 });
  });

  it('GET /api/me has the suspension while its end is ahead, and none once it has passed (no event ends it)', async () => {
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const suspended = await appended(userStream(reader.id), 'MemberSuspended', {
      userId: reader.id,
      reason: 'Spam',
      until,
      suspendedBy: moderator.id,
      suspendedAt: now(),
    });
    expect((await forum.call<Me>('GET', '/api/me', at(suspended, reader.token))).suspension).toEqual({ reason: 'Spam', until });
    const ended = await appended(userStream(reader.id), 'MemberSuspended', {
      userId: reader.id,
      reason: 'Spam',
      until: new Date(Date.now() - 1000).toISOString(),
      suspendedBy: moderator.id,
      suspendedAt: now(),
    });
    expect((await forum.call<Me>('GET', '/api/me', at(ended, reader.token))).suspension).toBeNull();
    const indefinite = await appended(userStream(reader.id), 'MemberSuspended', {
      userId: reader.id,
      reason: 'Gone',
      until: null,
      suspendedBy: moderator.id,
      suspendedAt: now(),
    });
    expect((await forum.call<Me>('GET', '/api/me', at(indefinite, reader.token))).suspension).toEqual({ reason: 'Gone', until: null });
    const lifted = await appended(userStream(reader.id), 'SuspensionLifted', { userId: reader.id, liftedBy: moderator.id, liftedAt: now() });
    expect((await forum.call<Me>('GET', '/api/me', at(lifted, reader.token))).suspension).toBeNull();
  });
});

describe('the change stream', () => {
  it("tells the home page and the post's page when staff act on a post or a comment, and the member when their account changes", async () => {
    const written = await post('Kestrels, live');
    const said = await forum.call<{ id: string; position: string }>('POST', '/api/comments', {
      token: reader.token,
      body: { postId: written.id, text: 'Watching the nest' },
      expect: 201,
    });
    const open = async (query: string) => {
      const stream = await openStream(forum.url.replace('localhost', '127.0.0.1'), `/api/stream?${query}`, {});
      onTestFinished(() => stream.close());
      await stream.next((m) => m.event === 'ready');
      return stream;
    };
    const { ticket } = await forum.call<{ ticket: string }>('GET', '/api/stream/ticket', { token: reader.token });
    const [home, page, mine] = [
      await open('topics=posts'),
      await open(`topics=post:${written.id}`),
      await open(`topics=me&ticket=${encodeURIComponent(ticket)}`),
    ];
    const staff = (method: string, path: string, body?: unknown) =>
      forum.call<{ position: string }>(method, path, { token: moderator.token, ...(body !== undefined && { body }) });
    const at = (event: string, position: string) => (m: SseMessage) => m.event === event && m.data.position === position;

    for (const [path, body] of [
      [`/api/admin/posts/${written.id}/hide`, { reason: 'Off topic' }],
      [`/api/admin/posts/${written.id}/lock`, {}],
      [`/api/admin/posts/${written.id}/pin`, undefined],
    ] as const) {
      const { position } = await staff('PUT', path, body);
      expect((await home.next(at('post-moderated', position))).data, path).toEqual({ postId: written.id, position });
      expect((await page.next(at('post-moderated', position))).data, path).toEqual({ postId: written.id, position });
    }
    await staff('DELETE', `/api/admin/posts/${written.id}/pin`);

    const hidden = await staff('PUT', `/api/admin/comments/${said.id}/hide`, { reason: 'Rude' });
    expect((await page.next(at('comment-moderated', hidden.position))).data).toEqual({ postId: written.id, commentId: said.id, position: hidden.position });
    expect(home.messages.filter((m) => m.event === 'comment-moderated')).toEqual([]);
    // its author is told (a moderation notification), on their own stream only
    await mine.next(at('notifications', hidden.position));

    const suspended = await staff('POST', `/api/admin/users/${reader.id}/suspend`, { reason: 'Cooling off', period: 'day' });
    await mine.next(at('account', suspended.position));
    const lifted = await staff('DELETE', `/api/admin/users/${reader.id}/suspend`);
    await mine.next(at('account', lifted.position));
    expect([...home.messages, ...page.messages].filter((m) => m.event === 'account' || m.event === 'notifications')).toEqual([]);
  });
});
