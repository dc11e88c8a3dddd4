import {
  commentLink,
  DEFAULT_WARNING_REASON,
  NOTIFICATIONS_PATH,
  type ErrorBody,
  type Notifications,
  type ReportedComment,
  type UserProfile,
} from '@forum/contracts';
import { anyString, objectContaining } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minPositionHeaders, startTestForum, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { given } from '../testing/given.ts';
import { calls } from './calls.ts';

let forum: TestForum;
let admin: string;
let adminId: string;

beforeAll(async () => {
  forum = await startTestForum({ PAYMENT_DEMO_DELAY_MS: '20' });
  admin = await forum.tokenFor('admin@forum.local');
  adminId = ((await (await forum.api('/api/me', { token: admin })).json()) as { _id: string })._id;
});
afterAll(() => forum?.stop());

const { eventCount, streamTypes, errorOf, getPost, addComment, comments, deletePost } = calls(() => forum);

const { registeredUser, createPost } = given(() => forum);
const report = (commentId: string, token: string, feedback: string) =>
  forum.api(`/api/comments/${commentId}/report`, { method: 'POST', token, json: { feedback } });
const reported = (position?: string) =>
  expectStatus<ReportedComment[]>(forum.api('/api/admin/reported-comments', { token: admin, headers: minPositionHeaders(position) }));
const NO_POST = '00000000-0000-4000-8000-000000000000';

describe('comments', () => {
  it('POST /api/comments adds a trimmed comment from the caller’s record; GET lists them oldest first; the post’s commentCount follows', async () => {
    const author = await registeredUser('Carla');
    const bob = await registeredUser('Bobby');
    const { id: postId } = await createPost(author.token);
    const first = await expectStatus<{ id: string; position: string }>(addComment(bob.token, postId, '  First!  '), 201);
    expect(first).toEqual({ id: anyString, position: anyString });
    const second = await expectStatus<{ id: string; position: string }>(
      forum.api('/api/comments', {
        method: 'POST',
        token: author.token,
        json: { postId, text: 'Thanks', authorName: 'Mallory', createdAt: '1999-01-01T00:00:00Z' },
      }),
      201,
    );

    const visitorView = await comments(postId, undefined, second.position);
    expect(visitorView).toEqual([
      { _id: first.id, postId, text: 'First!', authorName: 'Bobby', authorId: bob.id, authorPhoto: '', createdAt: anyString, revisionCount: 1 },
      { _id: second.id, postId, text: 'Thanks', authorName: 'Carla', authorId: author.id, authorPhoto: '', createdAt: anyString, revisionCount: 1 },
    ]);
    expect(Date.parse(visitorView[1]!.createdAt)).toBeGreaterThan(Date.parse('2020-01-01'));
    // emails only for the comment's own author and admins
    const bobView = await comments(postId, bob.token);
    expect(bobView[0]).toMatchObject({ authorEmail: bob.email });
    expect(bobView[1]).not.toHaveProperty('authorEmail');
    expect((await comments(postId, admin)).map((c) => c.authorEmail)).toEqual([bob.email, author.email]);
    expect(await getPost(postId)).toMatchObject({ commentCount: 2 });
    expect((await forum.store.readStream(`comment-${first.id}`)).events[0]).toMatchObject({ type: 'CommentAdded', metadata: { actorId: bob.id } });
  });

  it('GET /api/comments/:postId answers 404 for an unknown post and 400 for a malformed id, and [] for a post without comments', async () => {
    await errorOf(forum.api(`/api/comments/${NO_POST}`), 404);
    await errorOf(forum.api('/api/comments/nope'), 400);
    const author = await registeredUser('Quiet');
    const { id: postId, position } = await createPost(author.token);
    expect(await comments(postId, undefined, position)).toEqual([]);
  });

  it('deleting a post takes its comments out of the lists, the counts and the reported list', async () => {
    const author = await registeredUser('Eden');
    const commenter = await registeredUser('Finn');
    const { id: postId } = await createPost(author.token);
    const { id: commentId } = await expectStatus<{ id: string }>(addComment(commenter.token, postId, 'Spam spam'), 201);
    const { position } = await expectStatus<{ position: string }>(report(commentId, author.token, 'spam'), 201);
    expect((await reported(position)).some((r) => r._id === commentId)).toBe(true);
    const before = await expectStatus<UserProfile>(forum.api(`/api/user-profile/${commenter.email}`));
    expect(before.stats.comments).toBe(1);

    const deleted = await deletePost(postId, author.token);
    expect((await reported(deleted.position)).some((r) => r._id === commentId)).toBe(false);
    await errorOf(forum.api(`/api/comments/${postId}`), 404);
    expect((await expectStatus<UserProfile>(forum.api(`/api/user-profile/${commenter.email}`))).stats.comments).toBe(0);
    const remaining = await forum.db.raw<{ rows: unknown[] }>('SELECT 1 FROM read.comments WHERE post_id = ?', [postId]);
    expect(remaining.rows).toHaveLength(0);
    // its comment can no longer be reported
    await errorOf(report(commentId, commenter.token, 'spam'), 404);
  });
});

describe('reports', () => {
  it('POST /api/comments/:commentId/report records the report with the reporter from the token; the admin list has one row per report with the count per comment', async () => {
    const author = await registeredUser('Gina');
    const troll = await registeredUser('Troll');
    const reporters = [await registeredUser('Hugo'), await registeredUser('Iris')];
    const { id: postId } = await createPost(author.token);
    const { id: commentId } = await expectStatus<{ id: string }>(addComment(troll.token, postId, 'You are all wrong'), 201);
    const first = await expectStatus<{ id: string; position: string }>(
      forum.api(`/api/comments/${commentId}/report`, {
        method: 'POST',
        token: reporters[0]!.token,
        json: { feedback: 'offensive', reporterEmail: 'someone@else.test' },
      }),
      201,
    );
    expect(first).toEqual({ id: commentId, position: anyString });
    const second = await expectStatus<{ position: string }>(report(commentId, reporters[1]!.token, 'spam'), 201);

    const rows = (await reported(second.position)).filter((r) => r._id === commentId);
    expect(rows).toEqual([
      {
        _id: commentId,
        reportId: anyString,
        text: 'You are all wrong',
        postId,
        author: { name: 'Troll', email: troll.email, photoURL: '' },
        reporter: { name: 'Iris', email: reporters[1]!.email, photoURL: '' },
        feedback: 'spam',
        reportedAt: anyString,
        reportCount: 2,
        warned: false,
      },
      objectContaining({ reporter: { name: 'Hugo', email: reporters[0]!.email, photoURL: '' }, feedback: 'offensive', reportCount: 2 }),
    ]);
    expect(rows[0]!.reportId).not.toBe(rows[1]!.reportId);

    // react-admin's protocol: an array with ids and Content-Range
    const ranged = await forum.api('/api/admin/reported-comments?range=[0,0]&sort=["reportedAt","DESC"]', { token: admin });
    expect(ranged.status).toBe(200);
    expect(ranged.headers.get('Content-Range')).toMatch(/^reported-comments 0-0\/\d+$/);
    const [item] = (await ranged.json()) as (ReportedComment & { id: string })[];
    expect(item).toMatchObject({ id: rows[0]!.reportId, _id: commentId });
  });

  it('a second report of one comment by one user answers 409 ALREADY_REPORTED, also with ten at once: one report', async () => {
    const author = await registeredUser('Jack');
    const reporter = await registeredUser('Kara');
    const { id: postId } = await createPost(author.token);
    const { id: commentId } = await expectStatus<{ id: string }>(addComment(author.token, postId, 'Hmm'), 201);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => report(commentId, reporter.token, i % 2 ? 'spam' : 'inappropriate')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const conflict = (await answers[statuses.indexOf(409)]!.json()) as ErrorBody;
    expect(conflict.error.code).toBe('ALREADY_REPORTED');
    expect(await streamTypes(`report-${commentId}-${reporter.id}`)).toEqual(['CommentReported']);
    const { position } = (await answers[statuses.indexOf(201)]!.json()) as { position: string };
    expect((await reported(position)).filter((r) => r._id === commentId)).toHaveLength(1);
    expect((await errorOf(report(commentId, reporter.token, 'spam'), 409)).code).toBe('ALREADY_REPORTED');
  });

  it('GET /api/admin/reported-comments is for admins: 401 without a token, 403 for a user', async () => {
    const user = await registeredUser('Mona');
    await errorOf(forum.api('/api/admin/reported-comments'), 401);
    expect((await errorOf(forum.api('/api/admin/reported-comments', { token: user.token }), 403)).code).toBe('FORBIDDEN');
  });
});

describe('moderation', () => {
  it('DELETE /api/admin/comments/:commentId removes the comment everywhere and resolves its reports; the admin is in the event’s metadata', async () => {
    const author = await registeredUser('Nora');
    const troll = await registeredUser('Otto');
    const { id: postId } = await createPost(author.token);
    const { id: commentId } = await expectStatus<{ id: string }>(addComment(troll.token, postId, 'Buy my stuff'), 201);
    const kept = await expectStatus<{ id: string }>(addComment(author.token, postId, 'Welcome'), 201);
    const { position } = await expectStatus<{ position: string }>(report(commentId, author.token, 'spam'), 201);
    expect((await reported(position)).some((r) => r._id === commentId)).toBe(true);

    const removed = await expectStatus<{ id: string; position: string }>(forum.api(`/api/admin/comments/${commentId}`, { method: 'DELETE', token: admin }));
    expect(removed).toEqual({ id: commentId, position: anyString });
    expect((await comments(postId, undefined, removed.position)).map((c) => c._id)).toEqual([kept.id]);
    expect(await getPost(postId)).toMatchObject({ commentCount: 1 });
    expect((await reported()).some((r) => r._id === commentId)).toBe(false);
    const { events } = await forum.store.readStream(`comment-${commentId}`);
    expect(events.at(-1)).toMatchObject({
      type: 'CommentRemoved',
      data: { commentId, postId, authorId: troll.id, removedBy: adminId },
      metadata: { actorId: adminId },
    });
    // removed: gone for everyone
    await errorOf(forum.api(`/api/admin/comments/${commentId}`, { method: 'DELETE', token: admin }), 404);
    await errorOf(report(commentId, author.token, 'spam'), 404);
  });

  it('POST /api/admin/warn-user/:authorEmail warns the user, who sees it in GET /api/me/notifications and marks it read', async () => {
    const user = await registeredUser('Quinn');
    const { id: postId } = await createPost(user.token);
    const { id: commentId } = await expectStatus<{ id: string }>(addComment(user.token, postId, 'Rude words'), 201);

    const plain = await expectStatus<{ id: string; position: string }>(
      forum.api(`/api/admin/warn-user/${user.email.toUpperCase()}`, { method: 'POST', token: admin }),
      201,
    );
    const named = await expectStatus<{ id: string; position: string }>(
      forum.api(`/api/admin/warn-user/${user.email}`, { method: 'POST', token: admin, json: { reason: 'Please stay polite', commentId } }),
      201,
    );
    const { events } = await forum.store.readStream(`notifications-${user.id}`);
    expect(events.map((e) => e.type)).toEqual(['UserWarned', 'UserWarned']);
    expect(events[1]).toMatchObject({
      data: { warningId: named.id, userId: user.id, reason: 'Please stay polite', commentId, warnedBy: adminId },
      metadata: { actorId: adminId },
    });

    const seen = await expectStatus<Notifications>(forum.api('/api/me/notifications', { token: user.token, headers: minPositionHeaders(named.position) }));
    expect(seen).toEqual({
      notifications: [
        {
          _id: named.id,
          kind: 'warning',
          reason: 'Please stay polite',
          commentId,
          postId,
          postTitle: 'A post',
          commentQuote: 'Rude words',
          createdAt: anyString,
          read: false,
          link: commentLink(postId, commentId),
        },
        { _id: plain.id, kind: 'warning', reason: DEFAULT_WARNING_REASON, createdAt: anyString, read: false, link: NOTIFICATIONS_PATH },
      ],
      unread: 2,
      totalCount: 2,
      page: 1,
      announcementsReadUpTo: null,
    });

    const one = await expectStatus<{ position: string }>(
      forum.api('/api/me/notifications/read', { method: 'POST', token: user.token, json: { ids: [plain.id] } }),
    );
    expect(
      (await expectStatus<Notifications>(forum.api('/api/me/notifications', { token: user.token, headers: minPositionHeaders(one.position) }))).unread,
    ).toBe(1);
    const all = await expectStatus<{ position: string }>(forum.api('/api/me/notifications/read', { method: 'POST', token: user.token }));
    const after = await expectStatus<Notifications>(forum.api('/api/me/notifications', { token: user.token, headers: minPositionHeaders(all.position) }));
    expect(after.unread).toBe(0);
    expect(after.notifications.every((n) => n.read)).toBe(true);
    // nothing left to read up to a time already read: appends nothing
    const count = await eventCount();
    const again = await forum.api('/api/me/notifications/read', { method: 'POST', token: user.token, json: { upTo: seen.notifications[0]!.createdAt } });
    expect(again.status).toBe(200);
    expect(again.headers.get('X-Event-Position')).toBeNull();
    expect(await eventCount()).toBe(count);
    expect(await streamTypes(`notifications-${user.id}`)).toEqual(['UserWarned', 'UserWarned', 'WarningsRead', 'WarningsRead', 'NotificationsRead']);
  });

  it('warn-user: 403 for a user, 401 for a visitor, 404 for an unknown email or a comment not by that user, 400 for bad input; appends nothing', async () => {
    const user = await registeredUser('Rita');
    const other = await registeredUser('Sam');
    const { id: postId } = await createPost(other.token);
    const { id: othersComment } = await expectStatus<{ id: string }>(addComment(other.token, postId, 'Not Rita'), 201);
    const events = await eventCount();
    const warn = (email: string, token?: string, body?: unknown) =>
      forum.api(`/api/admin/warn-user/${email}`, { method: 'POST', ...(token && { token }), ...(body !== undefined && { json: body }) });
    expect((await errorOf(warn(other.email, user.token), 403)).code).toBe('FORBIDDEN');
    await errorOf(warn('nobody@forum.test', user.token), 403); // a user learns nothing about which emails exist
    await errorOf(warn(other.email), 401);
    expect((await errorOf(warn('nobody@forum.test', admin), 404)).message).toBe('No such user');
    await errorOf(warn(user.email, admin, { commentId: othersComment }), 404);
    await errorOf(warn('not-an-email', admin), 400);
    expect((await errorOf(warn(user.email, admin, { reason: 'x'.repeat(501) }), 400)).details).toHaveProperty('reason');
    await errorOf(warn(user.email, admin, { commentId: 'nope' }), 400);
    expect(await eventCount()).toBe(events);
  });

  it('GET /api/me/notifications needs a token; marking read refuses both upTo and ids, and bad ids, with 400', async () => {
    const user = await registeredUser('Tess');
    await errorOf(forum.api('/api/me/notifications'), 401);
    await errorOf(forum.api('/api/me/notifications/read', { method: 'POST' }), 401);
    expect(await expectStatus(forum.api('/api/me/notifications', { token: user.token }))).toEqual({
      notifications: [],
      unread: 0,
      totalCount: 0,
      page: 1,
      announcementsReadUpTo: null,
    });
    const events = await eventCount();
    await errorOf(
      forum.api('/api/me/notifications/read', { method: 'POST', token: user.token, json: { upTo: new Date().toISOString(), ids: [NO_POST] } }),
      400,
    );
    await errorOf(forum.api('/api/me/notifications/read', { method: 'POST', token: user.token, json: { ids: ['nope'] } }), 400);
    await errorOf(forum.api('/api/me/notifications/read', { method: 'POST', token: user.token, json: { upTo: 'yesterday' } }), 400);
    expect(await eventCount()).toBe(events);
  });
});
