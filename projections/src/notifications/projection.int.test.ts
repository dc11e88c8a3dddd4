import { isoNow as at, uuidOf } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { notificationsProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('notifications_projection');
});
afterAll(() => harness?.stop());

const warned = (n: number, userId = 'u-ann') =>
  harness.event('UserWarned', { warningId: uuidOf(n), userId, reason: `Reason ${n}`, warnedBy: 'u-admin', warnedAt: at() });
const read = (ids: number[], userId = 'u-ann') => harness.event('WarningsRead', { userId, warningIds: ids.map(uuidOf), readAt: at() });

describe('given warnings before the batch and in it', () => {
  it('when they are read in the batch, then those read before and after their warning in the log are as the log says', async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([warned(1), warned(2)]);
    await model.given([
      read([1]),
      read([3]), // names a warning that does not exist yet: nothing to mark
      warned(3),
      warned(4),
      read([2, 4]),
      read([1], 'u-ben'), // only the user's own warnings
      warned(5),
    ]);
    expect(await model.rows('SELECT id, read FROM notifications ORDER BY id')).toEqual([
      { id: uuidOf(1), read: true },
      { id: uuidOf(2), read: true },
      { id: uuidOf(3), read: false },
      { id: uuidOf(4), read: true },
      { id: uuidOf(5), read: false },
    ]);
  });
});

const marked = (n: number, upTo: string, userId = 'u-ann') =>
  harness.event('AnnouncementsRead', { userId, announcementId: uuidOf(100 + n), upTo, readAt: at() });
const erased = (userId: string) => harness.event('AccountErased', { userId, content: 'kept', erasedAt: at() });
const marks = (model: Awaited<ReturnType<typeof harness.fresh>>) =>
  model.rows('SELECT user_id, announcement_id, up_to FROM announcements_read ORDER BY user_id');

describe("given members' announcements read marks (issue #31)", () => {
  it('keeps one mark a member, the newest: a later event that marks an older announcement (in the batch or after it) moves nothing back', async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([
      marked(1, '2026-11-20T10:00:00.000Z'),
      marked(3, '2026-11-22T10:00:00.000Z'),
      marked(2, '2026-11-21T10:00:00.000Z'),
      marked(1, '2026-11-20T10:00:00.000Z', 'u-ben'),
    ]);
    await model.given([marked(2, '2026-11-21T10:00:00.000Z')]);
    expect(await marks(model)).toEqual([
      { user_id: 'u-ann', announcement_id: uuidOf(103), up_to: new Date('2026-11-22T10:00:00Z') },
      { user_id: 'u-ben', announcement_id: uuidOf(101), up_to: new Date('2026-11-20T10:00:00Z') },
    ]);
    await model.given([marked(4, '2026-11-23T10:00:00.000Z')]);
    expect((await marks(model))[0]).toMatchObject({ announcement_id: uuidOf(104), up_to: new Date('2026-11-23T10:00:00Z') });
  });

  it('deletes an erased member’s mark with their warnings, in the log’s order within a batch; the others’ stay', async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([warned(1), marked(1, '2026-11-20T10:00:00.000Z'), marked(1, '2026-11-20T10:00:00.000Z', 'u-ben')]);
    await model.given([marked(2, '2026-11-21T10:00:00.000Z'), erased('u-ann'), warned(2, 'u-ben')]);
    expect(await marks(model)).toEqual([{ user_id: 'u-ben', announcement_id: uuidOf(101), up_to: new Date('2026-11-20T10:00:00Z') }]);
    expect(await model.rows('SELECT user_id FROM notifications')).toEqual([{ user_id: 'u-ben' }]);
  });
});

const publishedBy = (authorId: string, n: number, publishedAt: string) =>
  harness.event(
    'AnnouncementPublished',
    { announcementId: uuidOf(100 + n), title: `News ${n}`, description: `About ${n}`, authorId, authorName: authorId, authorPhoto: '', publishedAt },
    `announcement-${uuidOf(100 + n)}`,
  );

describe("given admins' own announcements (issue #39, edge 18)", () => {
  it('an announcement is read by its author: their mark moves to it when they had read every one before it', async () => {
    const model = await harness.fresh(notificationsProjection);
    // the first announcement of all; then one after the author had read the one before (in the batch and after it)
    await model.given([
      publishedBy('u-ann', 1, '2026-11-20T10:00:00.000Z'),
      publishedBy('u-ben', 2, '2026-11-21T10:00:00.000Z'),
      marked(2, '2026-11-21T10:00:00.000Z'),
      publishedBy('u-ann', 3, '2026-11-22T10:00:00.000Z'),
    ]);
    // (Ben had not read Ann's first one: his own stays new to him with it)
    expect(await marks(model)).toEqual([{ user_id: 'u-ann', announcement_id: uuidOf(103), up_to: new Date('2026-11-22T10:00:00Z') }]);
    await model.given([publishedBy('u-ann', 4, '2026-11-23T10:00:00.000Z')]);
    expect((await marks(model))[0]).toMatchObject({ announcement_id: uuidOf(104), up_to: new Date('2026-11-23T10:00:00Z') });
  });

  it('an author who has not read an earlier announcement keeps their mark: that one stays new to them (a mark reads everything up to it)', async () => {
    const model = await harness.fresh(notificationsProjection);
    await model.given([publishedBy('u-ben', 1, '2026-11-20T10:00:00.000Z')]);
    await model.given([publishedBy('u-ann', 2, '2026-11-21T10:00:00.000Z')]);
    await model.given([
      marked(1, '2026-11-20T10:00:00.000Z', 'u-cy'),
      publishedBy('u-ben', 3, '2026-11-22T10:00:00.000Z'),
      publishedBy('u-cy', 4, '2026-11-23T10:00:00.000Z'),
    ]);
    expect(await marks(model)).toEqual([
      { user_id: 'u-ben', announcement_id: uuidOf(101), up_to: new Date('2026-11-20T10:00:00Z') },
      { user_id: 'u-cy', announcement_id: uuidOf(101), up_to: new Date('2026-11-20T10:00:00Z') },
    ]);
  });
});

describe('what staff did to a member’s post, comment or account (issue #43)', () => {
  it('when staff hide and show again, suspend and lift, then each reaches its author or the member as a moderation row with its reason and end, and NotificationsRead reads them', async () => {
    const model = await harness.fresh(notificationsProjection);
    const hiddenAt = '2026-11-29T12:00:00.000Z';
    await model.given([
      harness.event('PostHidden', { postId: uuidOf(1), authorId: 'u-ann', reason: 'Off topic', hiddenBy: 'u-mod', hiddenAt }),
      harness.event('PostUnhidden', { postId: uuidOf(1), authorId: 'u-ann', unhiddenBy: 'u-mod', unhiddenAt: hiddenAt }),
      harness.event('CommentHidden', { commentId: uuidOf(2), postId: uuidOf(1), authorId: 'u-ben', reason: 'Rude', hiddenBy: 'u-mod', hiddenAt }),
      harness.event('MemberSuspended', { userId: 'u-ben', reason: 'Spam', until: '2026-12-02T14:00:00.000Z', suspendedBy: 'u-mod', suspendedAt: hiddenAt }),
      harness.event('SuspensionLifted', { userId: 'u-ben', liftedBy: 'u-mod', liftedAt: hiddenAt }),
      harness.event('NotificationsRead', { userId: 'u-ann', readAt: at() }),
    ]);
    expect(
      await model.rows(
        `SELECT user_id, kind, action, reason, post_id, comment_id, to_char(until AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS until, read
         FROM notifications ORDER BY position`,
      ),
    ).toEqual([
      { user_id: 'u-ann', kind: 'moderation', action: 'post-hidden', reason: 'Off topic', post_id: uuidOf(1), comment_id: null, until: null, read: true },
      { user_id: 'u-ann', kind: 'moderation', action: 'post-unhidden', reason: null, post_id: uuidOf(1), comment_id: null, until: null, read: true },
      { user_id: 'u-ben', kind: 'moderation', action: 'comment-hidden', reason: 'Rude', post_id: uuidOf(1), comment_id: uuidOf(2), until: null, read: false },
      { user_id: 'u-ben', kind: 'moderation', action: 'suspended', reason: 'Spam', post_id: null, comment_id: null, until: '2026-12-02 14:00', read: false },
      { user_id: 'u-ben', kind: 'moderation', action: 'suspension-lifted', reason: null, post_id: null, comment_id: null, until: null, read: false },
    ]);
  });
});
