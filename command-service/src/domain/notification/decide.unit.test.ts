import { DEFAULT_WARNING_REASON, WARNING_QUOTE_LENGTH, type NotificationEvent } from '@forum/contracts';
import { FIXED_NOW as at } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import type { CommentState } from '../comment/comment.ts';
import type { UserState } from '../user/user.ts';
import { stateAfter, testCommandMeta, addedComment, livePost } from '../testing.ts';
import type { AnnouncementState } from '../announcement/announcement.ts';
import { decide, type MarkAnnouncementsRead, type MarkNotificationsRead, type WarnUser } from './decide.ts';
import { evolve, initialNotificationsState } from './notification.ts';

const meta = testCommandMeta({ actorId: 'u-admin', requestId: 'r' });
const bob: UserState = {
  status: 'registered',
  disabled: false,
  userId: 'u-bob',
  email: 'bob@forum.local',
  name: 'Bob',
  photoURL: '',
  handle: null,
  role: 'user',
  isMember: false,
  livePosts: new Set(),
  pendingPurchase: null,
  suspension: null,
};
const w1 = '33333333-3333-4333-8333-333333333331';
const w2 = '33333333-3333-4333-8333-333333333332';
const commentId = '22222222-2222-4222-8222-222222222222';
const bobsComment = addedComment('11111111-1111-4111-8111-111111111111', 'u-bob', 'Rude words');
const warn = (overrides: Partial<WarnUser['data']> = {}): WarnUser => ({
  type: 'WarnUser',
  data: { warningId: w1, actor: { id: 'u-admin', role: 'admin' }, target: bob, ...overrides },
});
const warned = (warningId: string, warnedAt: string): NotificationEvent => ({
  type: 'UserWarned',
  data: { warningId, userId: 'u-bob', reason: 'r', warnedBy: 'u-admin', warnedAt },
});
const given = stateAfter(evolve, initialNotificationsState);
const markRead = (data: Partial<MarkNotificationsRead['data']> = {}): MarkNotificationsRead => ({
  type: 'MarkNotificationsRead',
  data: { userId: 'u-bob', ...data },
});
const readAll = (upTo: string): NotificationEvent => ({ type: 'NotificationsRead', data: { userId: 'u-bob', upTo, readAt: at } });

describe('given a user with no warnings', () => {
  it('when an admin warns them with a reason and a comment of theirs, then UserWarned naming the comment, its post, a quote of it and the admin', () => {
    expect(decide(warn({ reason: '  Be kind  ', commentId, comment: bobsComment }), initialNotificationsState, meta)).toEqual([
      {
        type: 'UserWarned',
        data: {
          warningId: w1,
          userId: 'u-bob',
          reason: 'Be kind',
          commentId,
          postId: bobsComment.postId,
          commentQuote: 'Rude words',
          warnedBy: 'u-admin',
          warnedAt: at,
        },
      },
    ]);
  });
  it(`when the comment is longer than ${WARNING_QUOTE_LENGTH} characters, then the quote is its start and '...'; an erased one is not quoted`, () => {
    const long = { ...bobsComment, text: '👎'.repeat(WARNING_QUOTE_LENGTH + 1) };
    expect(decide(warn({ commentId, comment: long }), initialNotificationsState, meta)).toMatchObject([
      { data: { commentQuote: `${'👎'.repeat(WARNING_QUOTE_LENGTH)}...` } },
    ]);
    expect(decide(warn({ commentId, comment: { ...bobsComment, text: '' } }), initialNotificationsState, meta)[0]!.data).not.toHaveProperty('commentQuote');
  });
  it('when an admin warns them without a reason (the spec sends none), then the default reason', () => {
    expect(decide(warn(), initialNotificationsState, meta)).toEqual([
      { type: 'UserWarned', data: { warningId: w1, userId: 'u-bob', reason: DEFAULT_WARNING_REASON, warnedBy: 'u-admin', warnedAt: at } },
    ]);
  });
  it('when the comment was removed already, then the warning may still name it', () => {
    expect(decide(warn({ commentId, comment: { ...bobsComment, status: 'removed' } }), initialNotificationsState, meta)).toHaveLength(1);
  });
  it('when a non-admin warns, then 403 FORBIDDEN (before anything else)', () => {
    expect(() => decide(warn({ actor: { id: 'u-bob', role: 'user' }, target: { status: 'unknown' } }), initialNotificationsState, meta)).toThrowError(
      expect.objectContaining({ kind: 'forbidden' }),
    );
  });
  it('when the user is unknown, then 404', () => {
    expect(() => decide(warn({ target: { status: 'unknown' } }), initialNotificationsState, meta)).toThrowError(
      expect.objectContaining({ kind: 'not-found', message: 'No such user' }),
    );
  });
  it.each<[string, CommentState]>([
    ['an unknown comment', { status: 'none' }],
    ["another user's comment", { ...bobsComment, authorId: 'u-carl' }],
  ])('when the warning names %s, then 404', (_, comment) => {
    expect(() => decide(warn({ commentId, comment }), initialNotificationsState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
  it('when MarkNotificationsRead of all, then the other notifications up to now (this stream cannot know them), no warning', () => {
    expect(decide(markRead(), initialNotificationsState, meta)).toEqual([readAll(at)]);
  });
  it('when MarkNotificationsRead names ids, then NotificationsRead of them, each once', () => {
    expect(decide(markRead({ ids: [w1, w2, w1] }), initialNotificationsState, meta)).toEqual([
      { type: 'NotificationsRead', data: { userId: 'u-bob', ids: [w1, w2], readAt: at } },
    ]);
  });
});

describe('given two unread warnings', () => {
  const state = given([warned(w1, '2026-11-20T10:00:00.000Z'), warned(w2, '2026-11-21T09:00:00.000Z')]);
  it('when MarkNotificationsRead without ids or upTo, then all of them are read, and the other notifications up to now', () => {
    expect(decide(markRead(), state, meta)).toEqual([{ type: 'WarningsRead', data: { userId: 'u-bob', warningIds: [w1, w2], readAt: at } }, readAll(at)]);
  });
  it('when MarkNotificationsRead with ids, then the warnings among them by WarningsRead, the others by NotificationsRead', () => {
    const other = '44444444-4444-4444-8444-444444444444';
    expect(decide(markRead({ ids: [w2, other] }), state, meta)).toEqual([
      { type: 'WarningsRead', data: { userId: 'u-bob', warningIds: [w2], readAt: at } },
      { type: 'NotificationsRead', data: { userId: 'u-bob', ids: [other], readAt: at } },
    ]);
  });
  it('when MarkNotificationsRead upTo a time, then the warnings created up to it, and the other notifications up to it', () => {
    expect(decide(markRead({ upTo: '2026-11-20T10:00:00Z' }), state, meta)).toEqual([
      { type: 'WarningsRead', data: { userId: 'u-bob', warningIds: [w1], readAt: at } },
      readAll('2026-11-20T10:00:00.000Z'),
    ]);
  });
  it('when the same warning id is used again, then 409', () => {
    expect(() => decide(warn(), state, meta)).toThrowError(expect.objectContaining({ kind: 'conflict' }));
  });
});

describe('given a warning about a comment (#28.6)', () => {
  const state = given(decide(warn({ commentId, comment: bobsComment }), initialNotificationsState, meta));
  it('when the same comment is warned about again (another warning, any reason), then 409 ALREADY_WARNED', () => {
    expect(() => decide(warn({ warningId: w2, reason: 'Again', commentId, comment: bobsComment }), state, meta)).toThrowError(
      expect.objectContaining({ kind: 'conflict', code: 'ALREADY_WARNED', message: 'This comment has already been warned about.' }),
    );
  });
  it('when the user is warned about nothing in particular, or about another comment, then UserWarned', () => {
    expect(decide(warn({ warningId: w2 }), state, meta)).toHaveLength(1);
    expect(decide(warn({ warningId: w2, commentId: '22222222-2222-4222-8222-222222222223', comment: bobsComment }), state, meta)).toHaveLength(1);
  });
});

describe('#43.3 warnings by staff about a post', () => {
  const postId = '11111111-1111-4111-8111-111111111111';
  const bobsPost = livePost('u-bob');
  it('when a moderator warns a member about their post, then UserWarned naming the post alone', () => {
    expect(decide(warn({ actor: { id: 'u-mo', role: 'moderator' }, postId, post: bobsPost, reason: 'No ads' }), initialNotificationsState, meta)).toEqual([
      { type: 'UserWarned', data: { warningId: w1, userId: 'u-bob', reason: 'No ads', postId, warnedBy: 'u-mo', warnedAt: at } },
    ]);
  });
  it('given a warning about the post, when warned about it again, then 409 ALREADY_WARNED; a warning about a comment of that post is another matter', () => {
    const state = decide(warn({ postId, post: bobsPost }), initialNotificationsState, meta).reduce(evolve, initialNotificationsState);
    expect(() => decide(warn({ warningId: w2, postId, post: bobsPost }), state, meta)).toThrowError(
      expect.objectContaining({ kind: 'conflict', code: 'ALREADY_WARNED', message: 'This post has already been warned about.' }),
    );
    expect(decide(warn({ warningId: w2, commentId, comment: bobsComment }), state, meta)).toHaveLength(1);
  });
  it("when the post is someone else's or unknown, then 404; a deleted one may still be named", () => {
    for (const post of [livePost('u-carl'), { status: 'none' } as const])
      expect(() => decide(warn({ postId, post }), initialNotificationsState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
    expect(decide(warn({ postId, post: { status: 'deleted', authorId: 'u-bob' } }), initialNotificationsState, meta)).toHaveLength(1);
  });
  it.each(['moderator', 'admin'] as const)('a moderator may not warn a %s (403 STAFF_PROTECTED); an admin may', (role) => {
    const target = { ...bob, role } as UserState;
    expect(() => decide(warn({ actor: { id: 'u-mo', role: 'moderator' }, target }), initialNotificationsState, meta)).toThrowError(
      expect.objectContaining({ code: 'STAFF_PROTECTED' }),
    );
    expect(decide(warn({ target }), initialNotificationsState, meta)).toHaveLength(1);
  });
});

describe('given all warnings read', () => {
  const state = given([warned(w1, '2026-11-20T10:00:00.000Z'), { type: 'WarningsRead', data: { userId: 'u-bob', warningIds: [w1], readAt: at } }]);
  it('when MarkNotificationsRead of a read warning again, then nothing (idempotent)', () => {
    expect(decide(markRead({ ids: [w1] }), state, meta)).toEqual([]);
  });
});

describe('given the other notifications read up to a time', () => {
  const state = given([readAll('2026-11-21T10:00:00.000Z')]);
  it('when MarkNotificationsRead up to that time or an earlier one, then nothing', () => {
    expect(decide(markRead({ upTo: '2026-11-21T10:00:00.000Z' }), state, meta)).toEqual([]);
    expect(decide(markRead({ upTo: '2026-11-20T10:00:00.000Z' }), state, meta)).toEqual([]);
  });
  it('when MarkNotificationsRead up to a later time, then NotificationsRead up to it; the newest mark stands whatever the order', () => {
    expect(decide(markRead({ upTo: '2026-11-22T10:00:00.000Z' }), state, meta)).toEqual([readAll('2026-11-22T10:00:00.000Z')]);
    const after = given([readAll('2026-11-21T10:00:00.000Z'), readAll('2026-11-20T10:00:00.000Z')]);
    expect(after.activityReadUpTo).toBe('2026-11-21T10:00:00.000Z');
  });
});

describe('given notifications read by id', () => {
  const n1 = '44444444-4444-4444-8444-444444444441';
  const n2 = '44444444-4444-4444-8444-444444444442';
  const readById = (...ids: string[]): NotificationEvent => ({ type: 'NotificationsRead', data: { userId: 'u-bob', ids, readAt: at } });
  const state = given([readById(n1), readById(n2)]);
  it('when MarkNotificationsRead names only ids already read, then nothing (a read row never turns unread)', () => {
    expect(decide(markRead({ ids: [n2, n1, n1] }), state, meta)).toEqual([]);
  });
  it('when MarkNotificationsRead names some new ids, then NotificationsRead of the new ones only', () => {
    const n3 = '44444444-4444-4444-8444-444444444443';
    expect(decide(markRead({ ids: [n1, n3] }), state, meta)).toEqual([readById(n3)]);
  });
});

// ── announcements read (issue #31) ────────────────────────────────────────

const a1 = '44444444-4444-4444-8444-444444444441';
const a2 = '44444444-4444-4444-8444-444444444442';
const published = (announcementId: string, publishedAt: string): AnnouncementState => ({ status: 'published', announcementId, publishedAt });
const markAnnouncements = (announcement: AnnouncementState, userId = 'u-bob'): MarkAnnouncementsRead => ({
  type: 'MarkAnnouncementsRead',
  data: { userId, announcement },
});
const announcementsRead = (announcementId: string, upTo: string): NotificationEvent => ({
  type: 'AnnouncementsRead',
  data: { userId: 'u-bob', announcementId, upTo, readAt: at },
});

describe('given a member who has marked no announcement read', () => {
  it('when MarkAnnouncementsRead names a published announcement, then AnnouncementsRead up to its publication time', () => {
    expect(decide(markAnnouncements(published(a1, '2026-11-20T10:00:00.000Z')), initialNotificationsState, meta)).toEqual([
      { type: 'AnnouncementsRead', data: { userId: 'u-bob', announcementId: a1, upTo: '2026-11-20T10:00:00.000Z', readAt: at } },
    ]);
  });
  it('when the announcement is unknown, then 404 NOT_FOUND and nothing', () => {
    expect(() => decide(markAnnouncements({ status: 'none' }), initialNotificationsState, meta)).toThrowError(
      expect.objectContaining({ kind: 'not-found', code: 'NOT_FOUND', message: 'No such announcement' }),
    );
  });
  it('the mark is the one of the member the command names (the route takes it from the token): their own stream, their own id', () => {
    expect(decide(markAnnouncements(published(a1, '2026-11-20T10:00:00.000Z'), 'u-carl'), initialNotificationsState, meta)).toMatchObject([
      { data: { userId: 'u-carl' } },
    ]);
  });
});

describe('given a member who has read the announcements up to one', () => {
  const state = given([announcementsRead(a2, '2026-11-21T09:00:00.000Z')]);
  it('then the state keeps its time', () => {
    expect(state.announcementsReadUpTo).toBe('2026-11-21T09:00:00.000Z');
  });
  it('when they mark the same one again, or an older one (another device behind), then nothing: the mark only moves forward', () => {
    expect(decide(markAnnouncements(published(a2, '2026-11-21T09:00:00.000Z')), state, meta)).toEqual([]);
    expect(decide(markAnnouncements(published(a1, '2026-11-20T10:00:00.000Z')), state, meta)).toEqual([]);
  });
  it('when they mark a newer one, then AnnouncementsRead up to it', () => {
    const newer = published('44444444-4444-4444-8444-444444444443', '2026-11-22T08:00:00.000Z');
    expect(decide(markAnnouncements(newer), state, meta)).toMatchObject([{ type: 'AnnouncementsRead', data: { upTo: '2026-11-22T08:00:00.000Z' } }]);
  });
  it('a warning or its reading leaves the mark as it was', () => {
    const later = given([
      announcementsRead(a2, '2026-11-21T09:00:00.000Z'),
      warned(w1, '2026-11-22T10:00:00.000Z'),
      { type: 'WarningsRead', data: { userId: 'u-bob', warningIds: [w1], readAt: at } },
    ]);
    expect(later.announcementsReadUpTo).toBe('2026-11-21T09:00:00.000Z');
  });
  it('an older mark in the log (whatever wrote it) does not move the state back', () => {
    expect(given([announcementsRead(a2, '2026-11-21T09:00:00.000Z'), announcementsRead(a1, '2026-11-20T10:00:00.000Z')]).announcementsReadUpTo).toBe(
      '2026-11-21T09:00:00.000Z',
    );
  });
});
