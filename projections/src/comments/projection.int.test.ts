import type { CommentAdded, CommentReported, ReportFeedback } from '@forum/contracts';
import { isoNow as at, uuidOf } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { commentsProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('comments_projection');
});
afterAll(() => harness?.stop());

const added = (c: number, post: number, author = 'u-ann') =>
  harness.event<CommentAdded['data']>('CommentAdded', {
    commentId: uuidOf(c),
    postId: uuidOf(post),
    text: `Comment ${c}`,
    authorId: author,
    authorName: author,
    authorEmail: `${author}@forum.test`,
    authorPhoto: '',
    createdAt: new Date(Date.UTC(2026, 0, c)).toISOString(),
  });
const reported = (c: number, reporter: string, feedback: ReportFeedback = 'spam') =>
  harness.event<CommentReported['data']>('CommentReported', {
    commentId: uuidOf(c),
    postId: uuidOf(0),
    reporterId: reporter,
    reporterName: reporter,
    reporterEmail: `${reporter}@forum.test`,
    reporterPhoto: '',
    feedback,
    reportedAt: at(),
  });
const removed = (c: number, post: number, author = 'u-ann') =>
  harness.event('CommentRemoved', { commentId: uuidOf(c), postId: uuidOf(post), authorId: author, removedBy: 'u-admin', removedAt: at() });
const postDeleted = (post: number) => harness.event('PostDeleted', { postId: uuidOf(post), authorId: 'u-x', deletedBy: 'u-x', deletedAt: at() });

describe('given comments, reports, a removal and a deleted post', () => {
  const events = () => [
    added(1, 100),
    added(2, 100, 'u-ben'),
    added(3, 200, 'u-ben'),
    added(4, 300),
    reported(1, 'r1'),
    reported(1, 'r2', 'offensive'),
    reported(2, 'r1'),
    reported(4, 'r1'),
    removed(1, 100),
    reported(1, 'r3'), // raced the removal: resolved already
    postDeleted(300),
    added(5, 300), // raced its post's deletion: never listed
  ];

  it.each([1, 4, 1000])('then lists and counts are exact whatever the batch size (%i)', async (batchSize) => {
    const model = await harness.fresh(commentsProjection);
    await model.given(events(), batchSize);
    expect(await model.rows('SELECT id, post_id, report_count FROM comments ORDER BY id')).toEqual([
      { id: uuidOf(2), post_id: uuidOf(100), report_count: 1 },
      { id: uuidOf(3), post_id: uuidOf(200), report_count: 0 },
    ]);
    expect(await model.rows('SELECT comment_id, reporter_id FROM reports')).toEqual([{ comment_id: uuidOf(2), reporter_id: 'r1' }]);
    expect(await model.rows('SELECT name, value::int FROM counters ORDER BY name')).toEqual([
      { name: 'comments', value: 2 },
      { name: 'reports', value: 1 },
    ]);
    expect(await model.rows('SELECT user_id, comments FROM commenter_stats ORDER BY user_id')).toEqual([
      { user_id: 'u-ann', comments: 0 },
      { user_id: 'u-ben', comments: 2 },
    ]);
  });

  it.each([1, 2, 1000])("when a comment raced its post's deletion, then its author is not counted, live (batches of %i) as replayed", async (batchSize) => {
    const log = [added(6, 400, 'u-cy'), postDeleted(401), added(7, 401, 'u-dee')];
    const { ordinary } = await harness.liveAndReplayed(commentsProjection, log, batchSize, ['comments', 'counters', 'commenter_stats', 'deleted_posts']);
    expect(await ordinary.rows('SELECT user_id, comments FROM commenter_stats ORDER BY user_id')).toEqual([{ user_id: 'u-cy', comments: 1 }]);
  });

  it('when a commenter or reporter changes their name, then their comments and reports show it', async () => {
    const model = await harness.fresh(commentsProjection);
    await model.given([
      ...events(),
      harness.event('ProfileUpdated', { userId: 'u-ben', changes: { name: 'Benjamin', photoURL: 'b.png' }, updatedAt: at() }),
      harness.event('ProfileUpdated', { userId: 'r1', changes: { name: 'Reporter One' }, updatedAt: at() }),
    ]);
    expect(await model.rows("SELECT DISTINCT author_name, author_photo FROM comments WHERE author_id = 'u-ben'")).toEqual([
      { author_name: 'Benjamin', author_photo: 'b.png' },
    ]);
    expect(await model.rows('SELECT reporter_name FROM reports')).toEqual([{ reporter_name: 'Reporter One' }]);
  });

  it('when a commenter changes only their photo, then their name stays', async () => {
    const model = await harness.fresh(commentsProjection);
    await model.given([...events(), harness.event('ProfileUpdated', { userId: 'u-ben', changes: { photoURL: 'b2.png' }, updatedAt: at() })]);
    expect(await model.rows("SELECT DISTINCT author_name, author_photo FROM comments WHERE author_id = 'u-ben'")).toEqual([
      { author_name: 'u-ben', author_photo: 'b2.png' },
    ]);
  });

  it('when a ProfileUpdated stored as v1 (both fields) is read, then comments and reports show both', async () => {
    const model = await harness.fresh(commentsProjection);
    const updatedAt = at();
    await model.given([
      ...events(),
      harness.event('ProfileUpdated', { userId: 'u-ben', name: 'Benjamin', photoURL: 'b.png', updatedAt }, 'test', 1),
      harness.event('ProfileUpdated', { userId: 'r1', name: 'Reporter One', photoURL: 'r.png', updatedAt }, 'test', 1),
    ]);
    expect(await model.rows("SELECT DISTINCT author_name, author_photo FROM comments WHERE author_id = 'u-ben'")).toEqual([
      { author_name: 'Benjamin', author_photo: 'b.png' },
    ]);
    expect(await model.rows('SELECT reporter_name, reporter_photo FROM reports')).toEqual([{ reporter_name: 'Reporter One', reporter_photo: 'r.png' }]);
  });
});

describe('given one batch that holds what the log says in order (the batch is folded and written set-based)', () => {
  const renamed = (userId: string, name: string) => harness.event('ProfileUpdated', { userId, changes: { name }, updatedAt: at() });

  it('when a comment and a report come before their people rename, and another comment after, then each shows the name the log gives it', async () => {
    const model = await harness.fresh(commentsProjection);
    await model.given([added(1, 100, 'u-ann'), reported(1, 'r1'), renamed('u-ann', 'Annie'), renamed('r1', 'Reporter'), added(2, 100, 'u-ann')]);
    expect(await model.rows('SELECT id, author_name FROM comments ORDER BY id')).toEqual([
      { id: uuidOf(1), author_name: 'Annie' },
      { id: uuidOf(2), author_name: 'u-ann' }, // as its event says: it was decided after the rename
    ]);
    expect(await model.rows('SELECT reporter_name FROM reports')).toEqual([{ reporter_name: 'Reporter' }]);
  });

  it('when a comment is reported before it is added (never written so, but possible in a log), then the report is lost as it would be one event at a time', async () => {
    const model = await harness.fresh(commentsProjection);
    await model.given([reported(1, 'r1'), added(1, 100), reported(1, 'r2')]);
    expect(await model.rows('SELECT reporter_id FROM reports')).toEqual([{ reporter_id: 'r2' }]);
    expect(await model.rows('SELECT report_count FROM comments')).toEqual([{ report_count: 1 }]);
  });

  it('when comments on an earlier post are deleted with it and new ones on it follow in the batch, then none is listed or counted', async () => {
    const model = await harness.fresh(commentsProjection);
    await model.given([added(1, 100), added(2, 100, 'u-ben')]);
    await model.given([reported(2, 'r1'), postDeleted(100), added(3, 100), reported(3, 'r1')]);
    expect(await model.rows('SELECT * FROM comments')).toEqual([]);
    expect(await model.rows('SELECT * FROM reports')).toEqual([]);
    expect(await model.rows('SELECT name, value::int FROM counters ORDER BY name')).toEqual([
      { name: 'comments', value: 0 },
      { name: 'reports', value: 0 },
    ]);
  });
});

describe('given a rebuild, which replays staged and settles at the end', () => {
  const rename = (userId: string, changes: { name?: string; photoURL?: string }) => harness.event('ProfileUpdated', { userId, changes, updatedAt: at() });

  it.each([1, 3, 1000])(
    'when comments, reports, removals, deletions and renames come in batches (staged: ranges) of %i, then the tables are those the ordinary replay gives',
    async (batchSize) => {
      const log = [
        added(1, 100),
        added(2, 100, 'u-ben'),
        added(6, 400, 'u-ben'),
        added(7, 400),
        reported(6, 'r2'),
        reported(2, 'r1'),
        // a staged replay takes post 400's comments away when it settles: what later ranges
        // report or remove of them comes to nothing
        postDeleted(400),
        reported(6, 'r1'),
        reported(7, 'r1'),
        removed(6, 400, 'u-ben'),
        rename('u-ann', { name: 'Annie' }),
        rename('r1', { photoURL: 'r1.png' }),
        // written before the rename was read, appended after it: keeps the name it was written with
        added(3, 100),
        reported(1, 'r1'),
        removed(2, 100, 'u-ben'),
        postDeleted(300),
        added(4, 300), // raced the deletion
        rename('u-ann', { photoURL: 'ann.png' }),
        added(5, 100),
      ];
      const { rebuilt } = await harness.liveAndReplayed(commentsProjection, log, batchSize, [
        'comments',
        'reports',
        'counters',
        'commenter_stats',
        'deleted_posts',
        'replay_profiles',
      ]);
      expect(await rebuilt.rows('SELECT id, author_name, author_photo FROM comments ORDER BY id')).toEqual([
        { id: uuidOf(1), author_name: 'Annie', author_photo: 'ann.png' },
        { id: uuidOf(3), author_name: 'u-ann', author_photo: 'ann.png' },
        { id: uuidOf(5), author_name: 'u-ann', author_photo: '' },
      ]);
      expect(await rebuilt.rows('SELECT comment_id, reporter_photo FROM reports ORDER BY 1')).toEqual([{ comment_id: uuidOf(1), reporter_photo: '' }]);
    },
  );
});

describe('given a member who erases their account', () => {
  it.each([
    ['kept', 1],
    ['kept', 3],
    ['erased', 1],
    ['erased', 100],
  ] as const)(
    'then their comments and reports read as their events do from then on (content %s), the same live (batches of %i) and replayed',
    async (content, batchSize) => {
      const cy = `u-cy-${content}-${batchSize}`;
      const log = [
        added(20, 500, cy),
        added(21, 500, 'u-ben'),
        reported(21, cy),
        harness.event('ProfileUpdated', { userId: cy, changes: { name: 'Cy Q.', photoURL: 'cy.png' }, updatedAt: at() }),
        // a comment its erasure's own removals missed (written as the erasure was decided) keeps its row
        harness.event('AccountErased', { userId: cy, content, erasedAt: at() }, `user-${cy}`),
      ];
      const { ordinary } = await harness.liveAndReplayed(commentsProjection, log, batchSize, [
        'comments',
        'reports',
        'counters',
        'commenter_stats',
        'replay_profiles',
      ]);
      expect(await ordinary.rows('SELECT text, author_name, author_email, author_photo FROM comments WHERE author_id = ?', [cy])).toEqual([
        { text: content === 'erased' ? '' : 'Comment 20', author_name: 'Deleted user', author_email: '', author_photo: '' },
      ]);
      expect(await ordinary.rows('SELECT reporter_name, reporter_email, reporter_photo FROM reports WHERE reporter_id = ?', [cy])).toEqual([
        { reporter_name: 'Deleted user', reporter_email: '', reporter_photo: '' },
      ]);
    },
  );
});

describe("given a rebuild that staged a member's comments and rename before their erasure", () => {
  it('when it stages the erasure and settles, then their comments and reports read as erased, as live (not the name staged before)', async () => {
    const dee = 'u-dee-staged';
    const before = [
      added(30, 600, dee),
      added(31, 600, 'u-ben'),
      reported(31, dee),
      harness.event('ProfileUpdated', { userId: dee, changes: { name: 'Dee R.', photoURL: 'dee.png' }, updatedAt: at() }),
    ];
    const erasure = [harness.event('AccountErased', { userId: dee, content: 'kept', erasedAt: at() }, `user-${dee}`)];
    const ordinary = await harness.fresh(commentsProjection);
    await ordinary.given([...before, ...erasure]);
    const rebuilt = await harness.fresh(commentsProjection);
    // staged while their keys were there: the rows and the staged rename hold their name
    await rebuilt.staged(before);
    await rebuilt.replayed(erasure);
    for (const table of ['comments', 'reports', 'counters', 'commenter_stats', 'replay_profiles', 'replay_erasures']) {
      expect(await rebuilt.tableRows(table), table).toEqual(await ordinary.tableRows(table));
    }
    expect(await rebuilt.rows('SELECT text, author_name, author_email, author_photo FROM comments WHERE author_id = ?', [dee])).toEqual([
      { text: 'Comment 30', author_name: 'Deleted user', author_email: '', author_photo: '' },
    ]);
    expect(await rebuilt.rows('SELECT reporter_name, reporter_email, reporter_photo FROM reports WHERE reporter_id = ?', [dee])).toEqual([
      { reporter_name: 'Deleted user', reporter_email: '', reporter_photo: '' },
    ]);
  });
});

describe("staff's hiding of comments (issue #43)", () => {
  const hidden = (c: number, reason: string) =>
    harness.event('CommentHidden', {
      commentId: uuidOf(c),
      postId: uuidOf(100),
      authorId: 'u-ann',
      reason,
      hiddenBy: 'u-mod',
      hiddenAt: '2026-02-01T00:00:00.000Z',
    });
  const unhidden = (c: number) =>
    harness.event('CommentUnhidden', { commentId: uuidOf(c), postId: uuidOf(100), authorId: 'u-ann', unhiddenBy: 'u-mod', unhiddenAt: at() });
  const log = () => [
    added(1, 100),
    added(2, 100),
    added(3, 100),
    hidden(1, 'Spam'),
    hidden(1, 'Rude'),
    hidden(2, 'Spam'),
    unhidden(2),
    hidden(3, 'Spam'),
    removed(3, 100),
  ];

  it.each([1, 2, 100])(
    'when comments are hidden and shown again in batches (staged: ranges) of %i, then each keeps its latest mark, the same replayed',
    async (batchSize) => {
      const { ordinary } = await harness.liveAndReplayed(commentsProjection, log(), batchSize, ['comments', 'counters', 'commenter_stats']);
      expect(await ordinary.rows('SELECT id, hidden_reason, hidden_at IS NOT NULL AS hidden FROM comments ORDER BY id')).toEqual([
        { id: uuidOf(1), hidden_reason: 'Rude', hidden: true },
        { id: uuidOf(2), hidden_reason: null, hidden: false },
      ]);
    },
  );
});
