import { uuidOf } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { reportQueueProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('report_queue_projection');
});
afterAll(() => harness?.stop());

const time = (minute: number) => new Date(Date.UTC(2026, 10, 29, 12, minute)).toISOString();
const post = uuidOf;
const comment = (n: number) => uuidOf(1000 + n);
const postReported = (n: number, reporter: string, minute: number) =>
  harness.event('PostReported', {
    postId: post(n),
    reporterId: reporter,
    reporterName: reporter,
    reporterEmail: `${reporter}@forum.test`,
    reporterPhoto: '',
    feedback: 'spam',
    reportedAt: time(minute),
  });
const commentReported = (n: number, reporter: string, minute: number) =>
  harness.event('CommentReported', {
    commentId: comment(n),
    postId: post(9),
    reporterId: reporter,
    reporterName: reporter,
    reporterEmail: `${reporter}@forum.test`,
    reporterPhoto: '',
    feedback: 'offensive',
    reportedAt: time(minute),
  });
const by = { by: 'u-mod' };
const dismissed = (kind: 'post' | 'comment', id: string, minute: number) =>
  harness.event('ReportsDismissed', { item: { kind, id, postId: kind === 'post' ? id : post(9) }, dismissedBy: by.by, dismissedAt: time(minute) });

/** The queue as the read side lists it: each item's state and its current round's reporters. */
async function queue(model: Awaited<ReturnType<typeof harness.fresh>>) {
  return model.rows(
    `SELECT i.kind, i.id, i.open, i.handled_action AS action, i.handled_reason AS reason, i.hidden, i.deleted, i.warned, i.author_id,
            (SELECT string_agg(r.reporter_id, ',' ORDER BY r.reporter_id) FROM reports r WHERE (r.kind, r.id, r.round) = (i.kind, i.id, i.round)) AS reporters
     FROM items i ORDER BY i.kind, i.id`,
  );
}

describe('the moderators’ queue (issue #43)', () => {
  const log = () => [
    // post 1: reported twice, dismissed, reported again (open again with the new report alone)
    postReported(1, 'r1', 1),
    postReported(1, 'r2', 2),
    dismissed('post', post(1), 3),
    postReported(1, 'r3', 4),
    // post 2: hidden, then shown again (still handled: hidden)
    postReported(2, 'r1', 5),
    harness.event('PostHidden', { postId: post(2), authorId: 'u-ann', reason: 'Spam', hiddenBy: 'u-mod', hiddenAt: time(6) }),
    harness.event('PostUnhidden', { postId: post(2), authorId: 'u-ann', unhiddenBy: 'u-mod', unhiddenAt: time(7) }),
    // post 3: its author warned about it; post 4: its author suspended about it
    postReported(3, 'r1', 8),
    harness.event('UserWarned', { warningId: uuidOf(500), userId: 'u-ben', reason: 'Be kind', postId: post(3), warnedBy: 'u-mod', warnedAt: time(9) }),
    postReported(4, 'r1', 10),
    harness.event('MemberSuspended', {
      userId: 'u-cy',
      reason: 'Spam again',
      until: null,
      suspendedBy: 'u-mod',
      suspendedAt: time(11),
      about: { kind: 'post', id: post(4), postId: post(4) },
    }),
    // post 5: deleted; a report that raced the deletion opens nothing
    postReported(5, 'r1', 12),
    harness.event('PostDeleted', { postId: post(5), authorId: 'u-ann', deletedBy: 'u-mod', deletedAt: time(13) }),
    postReported(5, 'r2', 14),
    // comments: one removed, one hidden, one warned about, one gone with its post (post 9)
    commentReported(1, 'r1', 15),
    harness.event('CommentRemoved', { commentId: comment(1), postId: post(9), authorId: 'u-ann', removedBy: 'u-mod', removedAt: time(16) }),
    commentReported(2, 'r1', 17),
    harness.event('CommentHidden', { commentId: comment(2), postId: post(9), authorId: 'u-ann', reason: 'Rude', hiddenBy: 'u-mod', hiddenAt: time(18) }),
    commentReported(3, 'r1', 19),
    harness.event('UserWarned', {
      warningId: uuidOf(501),
      userId: 'u-ben',
      reason: 'Calm down',
      commentId: comment(3),
      postId: post(9),
      warnedBy: 'u-mod',
      warnedAt: time(20),
    }),
    commentReported(4, 'r1', 21),
    commentReported(4, 'r2', 22),
    // post 6: hidden without a report; post 7: reported, dismissed, then hidden (its latest handling)
    harness.event('PostHidden', { postId: post(6), authorId: 'u-dee', reason: 'Off topic', hiddenBy: 'u-mod', hiddenAt: time(23) }),
    postReported(7, 'r1', 24),
    dismissed('post', post(7), 25),
    harness.event('PostHidden', { postId: post(7), authorId: 'u-dee', reason: 'Scam link', hiddenBy: 'u-mod', hiddenAt: time(26) }),
  ];
  const expected = (deletedPost9: boolean) => [
    {
      kind: 'comment',
      id: comment(1),
      open: false,
      action: 'deleted',
      reason: null,
      hidden: false,
      deleted: true,
      warned: false,
      author_id: 'u-ann',
      reporters: 'r1',
    },
    {
      kind: 'comment',
      id: comment(2),
      open: false,
      action: 'hidden',
      reason: 'Rude',
      hidden: true,
      deleted: deletedPost9,
      warned: false,
      author_id: 'u-ann',
      reporters: 'r1',
    },
    {
      kind: 'comment',
      id: comment(3),
      open: false,
      action: 'warned',
      reason: 'Calm down',
      hidden: false,
      deleted: deletedPost9,
      warned: true,
      author_id: 'u-ben',
      reporters: 'r1',
    },
    deletedPost9
      ? {
          kind: 'comment',
          id: comment(4),
          open: false,
          action: 'deleted',
          reason: null,
          hidden: false,
          deleted: true,
          warned: false,
          author_id: null,
          reporters: 'r1,r2',
        }
      : {
          kind: 'comment',
          id: comment(4),
          open: true,
          action: null,
          reason: null,
          hidden: false,
          deleted: false,
          warned: false,
          author_id: null,
          reporters: 'r1,r2',
        },
    {
      kind: 'post',
      id: post(1),
      open: true,
      action: 'dismissed',
      reason: null,
      hidden: false,
      deleted: false,
      warned: false,
      author_id: null,
      reporters: 'r3',
    },
    {
      kind: 'post',
      id: post(2),
      open: false,
      action: 'hidden',
      reason: 'Spam',
      hidden: false,
      deleted: false,
      warned: false,
      author_id: 'u-ann',
      reporters: 'r1',
    },
    {
      kind: 'post',
      id: post(3),
      open: false,
      action: 'warned',
      reason: 'Be kind',
      hidden: false,
      deleted: false,
      warned: true,
      author_id: 'u-ben',
      reporters: 'r1',
    },
    {
      kind: 'post',
      id: post(4),
      open: false,
      action: 'suspended',
      reason: 'Spam again',
      hidden: false,
      deleted: false,
      warned: false,
      author_id: 'u-cy',
      reporters: 'r1',
    },
    {
      kind: 'post',
      id: post(5),
      open: false,
      action: 'deleted',
      reason: null,
      hidden: false,
      deleted: true,
      warned: false,
      author_id: 'u-ann',
      reporters: 'r1',
    },
    {
      kind: 'post',
      id: post(6),
      open: false,
      action: 'hidden',
      reason: 'Off topic',
      hidden: true,
      deleted: false,
      warned: false,
      author_id: 'u-dee',
      reporters: null,
    },
    {
      kind: 'post',
      id: post(7),
      open: false,
      action: 'hidden',
      reason: 'Scam link',
      hidden: true,
      deleted: false,
      warned: false,
      author_id: 'u-dee',
      reporters: 'r1',
    },
    ...(deletedPost9
      ? [{ kind: 'post', id: post(9), open: false, action: null, reason: null, hidden: false, deleted: true, warned: false, author_id: 'u-x', reporters: null }]
      : []),
  ];

  it.each([1, 3, 100])(
    'when items are reported and handled in each way in batches of %i, then each is open or handled as the log says, with its round’s reports',
    async (batchSize) => {
      const model = await harness.fresh(reportQueueProjection);
      await model.given(log(), batchSize);
      expect(await queue(model)).toEqual(expected(false));
      // its open rows, oldest unhandled report first: comment 4 (minutes 21), post 1 (its new round: minute 4)
      expect(await model.rows('SELECT kind, id FROM items WHERE open ORDER BY opened_at')).toEqual([
        { kind: 'post', id: post(1) },
        { kind: 'comment', id: comment(4) },
      ]);
    },
  );

  it('when a post is deleted, then its comments’ open reports are handled with it, and they are marked deleted', async () => {
    const model = await harness.fresh(reportQueueProjection);
    await model.given([...log(), harness.event('PostDeleted', { postId: post(9), authorId: 'u-x', deletedBy: 'u-mod', deletedAt: time(30) })]);
    expect(await queue(model)).toEqual(expected(true));
  });
});
