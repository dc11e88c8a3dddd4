import { SUMMARY_SOURCE_LENGTH, type CommentAdded, type PostCreated, type Vote } from '@forum/contracts';
import { explainInto, isoNow as at, uuidOf, type KnexPool } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { pageBlockProblems } from './pages.ts';
import { postsProjection } from './projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('posts_projection');
});
afterAll(() => harness?.stop());

const created = (n: number, author = 'u-ann', tags: string[] = []) =>
  harness.event<PostCreated['data']>('PostCreated', {
    postId: uuidOf(n),
    title: `Post ${n}`,
    description: `About number ${n}`,
    tags,
    authorId: author,
    authorName: author === 'u-ann' ? 'Ann' : 'Ben',
    authorEmail: `${author}@forum.test`,
    authorPhoto: '',
    createdAt: new Date(Date.UTC(2026, 0, n)).toISOString(),
  });
const vote = (n: number, userId: string, previous: Vote, next: Vote) =>
  harness.event('VoteCast', { postId: uuidOf(n), userId, previous, vote: next, at: at() });
const comment = (n: number, c: number) =>
  harness.event<CommentAdded['data']>('CommentAdded', {
    commentId: uuidOf(1000 + c),
    postId: uuidOf(n),
    text: 't',
    authorId: 'u-ben',
    authorName: 'Ben',
    authorEmail: 'b@forum.test',
    authorPhoto: '',
    createdAt: at(),
  });
const removed = (n: number, c: number) =>
  harness.event('CommentRemoved', { commentId: uuidOf(1000 + c), postId: uuidOf(n), authorId: 'u-ben', removedBy: 'u-admin', removedAt: at() });
const deleted = (n: number, author = 'u-ann') => harness.event('PostDeleted', { postId: uuidOf(n), authorId: author, deletedBy: author, deletedAt: at() });

describe('given posts, votes and comments in one batch or in many', () => {
  const events = () => [
    created(1, 'u-ann', ['React', 'Node.js']),
    created(2, 'u-ann', ['React']),
    created(3, 'u-ben'),
    vote(1, 'v1', 'none', 'up'),
    vote(1, 'v2', 'none', 'up'),
    vote(1, 'v1', 'up', 'down'),
    vote(2, 'v1', 'none', 'up'),
    vote(3, 'v1', 'none', 'up'),
    comment(1, 1),
    comment(1, 2),
    removed(1, 1),
    vote(1, 'v3', 'none', 'up'),
    comment(2, 4), // received, then gone with its post
    deleted(2),
    vote(2, 'v2', 'none', 'up'), // raced the deletion: changes nothing
    comment(2, 3),
  ];

  it.each([1, 3, 1000])('then the counts are exact whatever the batch size (%i)', async (batchSize) => {
    const model = await harness.fresh(postsProjection);
    await model.given(events(), batchSize);
    expect(await model.rows('SELECT id, up_vote, down_vote, comment_count, score FROM posts ORDER BY id')).toEqual([
      { id: uuidOf(1), up_vote: 2, down_vote: 1, comment_count: 1, score: 1 },
      { id: uuidOf(3), up_vote: 1, down_vote: 0, comment_count: 0, score: 1 },
    ]);
    // comments received: post 1's two less the one removed; the comment on post 2 came after its deletion
    expect(await model.rows('SELECT user_id, posts, up_votes, comments FROM author_stats ORDER BY user_id')).toEqual([
      { user_id: 'u-ann', posts: 1, up_votes: 2, comments: 1 },
      { user_id: 'u-ben', posts: 1, up_votes: 1, comments: 0 },
    ]);
    expect(await model.rows('SELECT tag_key, posts FROM tag_counters ORDER BY tag_key')).toEqual([
      { tag_key: 'node.js', posts: 1 },
      { tag_key: 'react', posts: 1 },
    ]);
    expect(await model.rows("SELECT value::int FROM counters WHERE name = 'posts'")).toEqual([{ value: 2 }]);
    expect(await model.rows('SELECT post_id, user_id, vote FROM votes ORDER BY post_id, user_id')).toEqual([
      { post_id: uuidOf(1), user_id: 'v1', vote: 'down' },
      { post_id: uuidOf(1), user_id: 'v2', vote: 'up' },
      { post_id: uuidOf(1), user_id: 'v3', vote: 'up' },
      { post_id: uuidOf(3), user_id: 'v1', vote: 'up' },
    ]);
  });

  it('then full-text search finds them by words of the title and the description, and no longer the deleted one', async () => {
    const model = await harness.fresh(postsProjection);
    await model.given(events());
    expect(await model.rows("SELECT id FROM post_search WHERE search @@ websearch_to_tsquery('english', 'numbers') ORDER BY id")).toEqual([
      { id: uuidOf(1) },
      { id: uuidOf(3) },
    ]);
    expect(await model.rows("SELECT id FROM post_search WHERE search @@ websearch_to_tsquery('english', 'post') ORDER BY id")).toEqual([
      { id: uuidOf(1) },
      { id: uuidOf(3) },
    ]);
    // each vector carries its post's creation time, to be walked newest first
    expect(await model.rows('SELECT count(*)::int AS n FROM post_search s JOIN posts p USING (id) WHERE s.created_at = p.created_at')).toEqual([
      { n: (await model.rows<{ n: number }>('SELECT count(*)::int AS n FROM posts'))[0]!.n },
    ]);
  });

  it('when the author changes their name, then the posts and the leaderboard show it', async () => {
    const model = await harness.fresh(postsProjection);
    await model.given([...events(), harness.event('ProfileUpdated', { userId: 'u-ann', changes: { name: 'Annie', photoURL: 'p' }, updatedAt: at() })]);
    expect(await model.rows("SELECT DISTINCT author_name FROM posts WHERE author_id = 'u-ann'")).toEqual([{ author_name: 'Annie' }]);
    expect(await model.rows("SELECT name, photo_url FROM author_stats WHERE user_id = 'u-ann'")).toEqual([{ name: 'Annie', photo_url: 'p' }]);
  });

  it('when the author changes only their photo, then their name stays', async () => {
    const model = await harness.fresh(postsProjection);
    await model.given([...events(), harness.event('ProfileUpdated', { userId: 'u-ann', changes: { photoURL: 'p2' }, updatedAt: at() })]);
    expect(await model.rows("SELECT DISTINCT author_name, author_photo FROM posts WHERE author_id = 'u-ann'")).toEqual([
      { author_name: 'Ann', author_photo: 'p2' },
    ]);
    expect(await model.rows("SELECT name, photo_url FROM author_stats WHERE user_id = 'u-ann'")).toEqual([{ name: 'Ann', photo_url: 'p2' }]);
  });

  it('when a ProfileUpdated stored as v1 (both fields) is read, then it sets both', async () => {
    const model = await harness.fresh(postsProjection);
    await model.given([...events(), harness.event('ProfileUpdated', { userId: 'u-ann', name: 'Annie', photoURL: 'p1', updatedAt: at() }, 'test', 1)]);
    expect(await model.rows("SELECT DISTINCT author_name, author_photo FROM posts WHERE author_id = 'u-ann'")).toEqual([
      { author_name: 'Annie', author_photo: 'p1' },
    ]);
    expect(await model.rows("SELECT name, photo_url FROM author_stats WHERE user_id = 'u-ann'")).toEqual([{ name: 'Annie', photo_url: 'p1' }]);
  });
});

describe('given one batch that holds what the log says in order (the batch is folded and written set-based)', () => {
  const renamed = (name: string) => harness.event('ProfileUpdated', { userId: 'u-ann', changes: { name }, updatedAt: at() });

  it('when a post, a rename of its author and another post follow each other, then both posts and the leaderboard show the new name', async () => {
    const model = await harness.fresh(postsProjection);
    await model.given([created(1), renamed('Annie'), created(2), vote(2, 'v1', 'none', 'up')]);
    expect(await model.rows('SELECT id, author_name FROM posts ORDER BY id')).toEqual([
      { id: uuidOf(1), author_name: 'Annie' },
      { id: uuidOf(2), author_name: 'Ann' }, // as its event says: it was decided after the rename
    ]);
    expect(await model.rows('SELECT name, posts, up_votes FROM author_stats')).toEqual([{ name: 'Ann', posts: 2, up_votes: 1 }]);
  });

  it('when an earlier batch made the posts, and this one renames, votes and deletes two posts of one author with one tag, then the counts come out per author and per tag', async () => {
    const model = await harness.fresh(postsProjection);
    await model.given([created(1, 'u-ann', ['React']), created(2, 'u-ann', ['React']), created(3, 'u-ann', ['React'])]);
    await model.given([
      renamed('Annie'),
      vote(1, 'v1', 'none', 'up'),
      vote(2, 'v1', 'none', 'up'),
      vote(3, 'v1', 'none', 'up'),
      comment(1, 1),
      comment(3, 2),
      deleted(1),
      deleted(2),
    ]);
    expect(await model.rows('SELECT id, author_name, up_vote FROM posts')).toEqual([{ id: uuidOf(3), author_name: 'Annie', up_vote: 1 }]);
    expect(await model.rows('SELECT name, posts, up_votes, comments FROM author_stats')).toEqual([{ name: 'Annie', posts: 1, up_votes: 1, comments: 1 }]);
    expect(await model.rows('SELECT tag_key, posts FROM tag_counters')).toEqual([{ tag_key: 'react', posts: 1 }]);
    expect(await model.rows('SELECT post_id FROM votes')).toEqual([{ post_id: uuidOf(3) }]);
  });

  it('when a post is created and deleted in the batch, then nothing of it is left, counters included', async () => {
    const model = await harness.fresh(postsProjection);
    await model.given([created(1, 'u-ann', ['React']), vote(1, 'v1', 'none', 'up'), comment(1, 1), deleted(1)]);
    expect(await model.rows('SELECT * FROM posts')).toEqual([]);
    expect(await model.rows('SELECT * FROM post_search')).toEqual([]);
    expect(await model.rows('SELECT * FROM votes')).toEqual([]);
    expect(await model.rows("SELECT value::int FROM counters WHERE name = 'posts'")).toEqual([{ value: 0 }]);
    expect(await model.rows('SELECT tag_key, posts FROM tag_counters')).toEqual([{ tag_key: 'react', posts: 0 }]);
    expect(await model.rows('SELECT posts, up_votes, comments FROM author_stats')).toEqual([{ posts: 0, up_votes: 0, comments: 0 }]);
  });

  it('when a vote names a post before the post is created (never written so, but possible in a log), then it is lost as it would be one event at a time', async () => {
    const model = await harness.fresh(postsProjection);
    await model.given([vote(1, 'v1', 'none', 'up'), created(1), vote(1, 'v2', 'none', 'up')]);
    expect(await model.rows('SELECT up_vote FROM posts')).toEqual([{ up_vote: 1 }]);
    expect(await model.rows('SELECT user_id FROM votes')).toEqual([{ user_id: 'v2' }]);
  });
});

describe('given a rebuild, which replays staged and settles at the end', () => {
  const rename = (changes: { name?: string; photoURL?: string }) => harness.event('ProfileUpdated', { userId: 'u-ann', changes, updatedAt: at() });

  it.each([1, 4, 1000])(
    'when posts, votes, comments, deletions and renames come in batches (staged: ranges) of %i, then the tables are those the ordinary replay gives',
    async (batchSize) => {
      const log = [
        created(1, 'u-ann', ['React']),
        created(2, 'u-ann', ['React', 'Vue']),
        vote(1, 'v1', 'none', 'up'),
        rename({ name: 'Annie' }),
        // a member's post decided before the rename and appended after it keeps the name it was written with
        { ...created(3, 'u-ann'), data: { ...created(3, 'u-ann').data, authorName: 'Ann' } },
        vote(1, 'v1', 'up', 'down'),
        vote(2, 'v2', 'none', 'up'),
        comment(1, 1),
        comment(3, 2),
        deleted(2),
        vote(2, 'v3', 'none', 'up'), // raced the deletion
        rename({ photoURL: 'p9' }),
        created(4, 'u-ann'),
        vote(4, 'v1', 'none', 'up'),
        removed(1, 1),
      ];
      const { rebuilt } = await harness.liveAndReplayed(postsProjection, log, batchSize, [
        'posts',
        'post_search',
        'votes',
        'counters',
        'tag_counters',
        'author_stats',
      ]);
      expect(await rebuilt.rows('SELECT id, author_name, author_photo, up_vote, down_vote, comment_count FROM posts ORDER BY id')).toEqual([
        { id: uuidOf(1), author_name: 'Annie', author_photo: 'p9', up_vote: 0, down_vote: 1, comment_count: 0 },
        { id: uuidOf(3), author_name: 'Ann', author_photo: 'p9', up_vote: 0, down_vote: 0, comment_count: 1 },
        { id: uuidOf(4), author_name: 'Ann', author_photo: '', up_vote: 1, down_vote: 0, comment_count: 0 },
      ]);
      expect(await rebuilt.rows('SELECT count(*)::int AS n FROM replay_spans')).toEqual([{ n: 0 }]);
      expect(await rebuilt.rows("SELECT id FROM post_search WHERE search @@ websearch_to_tsquery('english', 'number') ORDER BY id")).toEqual(
        [uuidOf(1), uuidOf(3), uuidOf(4)].map((id) => ({ id })),
      );
    },
  );

  it.each(['votes', 'counts', 'votes and counts'])(
    'when a build staged before votes and counts settled together had settled its %s, then settling completes the rest as the ordinary replay gives it',
    async (done) => {
      const log = [
        created(1),
        created(2, 'u-ben'),
        vote(1, 'v1', 'none', 'up'),
        vote(1, 'v2', 'none', 'down'),
        comment(2, 1),
        rename({ name: 'Annie' }),
        vote(1, 'v1', 'up', 'down'),
      ];
      const ordinary = await harness.fresh(postsProjection);
      await ordinary.given(log);
      const rebuilt = await harness.fresh(postsProjection);
      // what that build's step for them wrote, with its span taken
      await rebuilt.replayed(log, 3, async (trx) => {
        if (done.includes('votes')) await trx.raw(`INSERT INTO votes SELECT * FROM "${ordinary.schema}".votes`);
        if (done.includes('counts')) {
          await trx.raw(
            `UPDATE posts r SET up_vote = o.up_vote, down_vote = o.down_vote, comment_count = o.comment_count, author_name = o.author_name, author_photo = o.author_photo
             FROM "${ordinary.schema}".posts o WHERE o.id = r.id`,
          );
          await trx.raw(
            `UPDATE author_stats r SET up_votes = o.up_votes, comments = o.comments FROM "${ordinary.schema}".author_stats o WHERE o.user_id = r.user_id`,
          );
          await trx.raw('TRUNCATE replay_profiles');
        }
        const steps = done.split(' and ');
        expect((await trx.raw<{ rowCount: number }>('DELETE FROM replay_spans WHERE step = ANY (?)', [steps])).rowCount).toBe(steps.length);
      });
      for (const table of ['posts', 'votes', 'author_stats', 'replay_spans', 'replay_profiles']) {
        expect(await rebuilt.tableRows(table), table).toEqual(await ordinary.tableRows(table));
      }
      expect(await rebuilt.rows('SELECT count(*)::int AS n FROM votes')).toEqual([{ n: 2 }]);
    },
  );
});

describe('given posts with long descriptions and mixed-case tags', () => {
  const described = (n: number, description: string, tags: string[]) => {
    const event = created(n, 'u-ann', tags);
    return { ...event, data: { ...event.data, description } };
  };

  it("when they are replayed the ordinary way or staged, then each card keeps its description's opening (SUMMARY_SOURCE_LENGTH characters, not UTF-16 units) and its tags once, lower-cased, in order", async () => {
    const log = [
      described(1, 'a'.repeat(SUMMARY_SOURCE_LENGTH), ['React', 'react', 'CSS']),
      described(2, 'b'.repeat(SUMMARY_SOURCE_LENGTH + 1), []),
      described(3, '😀'.repeat(SUMMARY_SOURCE_LENGTH + 1), ['Node.js']),
    ];
    const expected = [
      { summary: 'a'.repeat(SUMMARY_SOURCE_LENGTH), tags: ['React', 'react', 'CSS'], tag_keys: ['react', 'css'] },
      { summary: 'b'.repeat(SUMMARY_SOURCE_LENGTH), tags: [], tag_keys: [] },
      { summary: '😀'.repeat(SUMMARY_SOURCE_LENGTH), tags: ['Node.js'], tag_keys: ['node.js'] },
    ];
    const ordinary = await harness.fresh(postsProjection);
    await ordinary.given(log);
    const rebuilt = await harness.fresh(postsProjection);
    await rebuilt.replayed(log);
    for (const model of [ordinary, rebuilt]) expect(await model.rows('SELECT summary, tags, tag_keys FROM posts ORDER BY created_at')).toEqual(expected);
    expect(await rebuilt.rows('SELECT tag_key, posts FROM tag_counters ORDER BY tag_key')).toEqual([
      { tag_key: 'css', posts: 1 },
      { tag_key: 'node.js', posts: 1 },
      { tag_key: 'react', posts: 1 },
    ]);
  });
});

describe('given a member who erases their account', () => {
  it.each([
    ['kept', 1],
    ['kept', 4],
    ['erased', 1],
    ['erased', 100],
  ] as const)(
    'then their posts and the leaderboard read as their events do from then on (content %s), the same live (batches of %i) and replayed',
    async (content, batchSize) => {
      const cy = `u-cy-${content}-${batchSize}`;
      const post = (n: number, author = cy) =>
        harness.event<PostCreated['data']>('PostCreated', {
          ...created(n).data,
          title: `Cy's heron ${n}`,
          description: `Herons wait, says Cy ${n}`,
          authorId: author,
          authorName: author === cy ? 'Cy Quetzal' : 'Ben',
          authorEmail: `${author}@forum.test`,
          authorPhoto: author === cy ? 'cy.png' : '',
        });
      const log = [
        post(60, cy),
        post(61, cy),
        post(62, 'u-ben'),
        vote(60, 'v1', 'none', 'up'),
        comment(60, 60),
        harness.event('ProfileUpdated', { userId: cy, changes: { name: 'Cy Q.' }, updatedAt: at() }),
        deleted(61, cy),
        // a post its erasure's own deletions missed (written as the erasure was decided) keeps its row
        harness.event('AccountErased', { userId: cy, content, erasedAt: at() }, `user-${cy}`),
      ];
      const { ordinary } = await harness.liveAndReplayed(postsProjection, log, batchSize, [
        'posts',
        'post_search',
        'votes',
        'counters',
        'tag_counters',
        'author_stats',
      ]);
      const text = content === 'erased' ? '' : `Cy's heron 60`;
      expect(await ordinary.rows('SELECT title, summary, author_name, author_email, author_photo FROM posts WHERE author_id = ?', [cy])).toEqual([
        { title: text, summary: content === 'erased' ? '' : 'Herons wait, says Cy 60', author_name: 'Deleted user', author_email: '', author_photo: '' },
      ]);
      expect(await ordinary.rows('SELECT name, photo_url FROM author_stats WHERE user_id = ?', [cy])).toEqual([{ name: 'Deleted user', photo_url: '' }]);
      const found = await ordinary.rows("SELECT count(*)::int AS n FROM post_search WHERE search @@ websearch_to_tsquery('english', 'heron')");
      expect(found).toEqual([{ n: content === 'erased' ? 1 : 2 }]);
    },
  );
});

describe("staff's marks: hidden, locked, pinned (issue #43)", () => {
  const hidden = (n: number, reason = 'Off topic') =>
    harness.event('PostHidden', { postId: uuidOf(n), authorId: 'u-ann', reason, hiddenBy: 'u-mod', hiddenAt: '2026-02-01T00:00:00.000Z' });
  const unhidden = (n: number) => harness.event('PostUnhidden', { postId: uuidOf(n), authorId: 'u-ann', unhiddenBy: 'u-mod', unhiddenAt: at() });
  const locked = (n: number, reason?: string) =>
    harness.event('PostLocked', { postId: uuidOf(n), ...(reason && { reason }), lockedBy: 'u-mod', lockedAt: at() });
  const unlocked = (n: number) => harness.event('PostUnlocked', { postId: uuidOf(n), unlockedBy: 'u-mod', unlockedAt: at() });
  const pinned = (n: number) => harness.event('PostPinned', { postId: uuidOf(n), pinnedBy: 'u-mod', pinnedAt: new Date(Date.UTC(2026, 2, n)).toISOString() });
  const unpinned = (n: number) => harness.event('PostUnpinned', { postId: uuidOf(n), unpinnedBy: 'u-mod', unpinnedAt: at() });
  const log = () => [
    created(1, 'u-ann', ['React']),
    created(2, 'u-ann', ['React']),
    created(3, 'u-ben', ['React']),
    created(4, 'u-ben'),
    created(5, 'u-ben'),
    hidden(1, 'Spam'),
    hidden(1), // a new reason
    hidden(2),
    unhidden(2),
    locked(3, 'Heated'),
    locked(4),
    unlocked(4),
    pinned(3),
    pinned(4),
    unpinned(4),
    pinned(5),
    vote(5, 'v1', 'none', 'up'),
    deleted(5), // a deleted pinned post is nowhere
  ];
  const marks = (model: Awaited<ReturnType<typeof harness.fresh>>) =>
    model.rows(`SELECT id, hidden_reason, hidden_at IS NOT NULL AS hidden, locked, lock_reason, pinned_at IS NOT NULL AS pinned FROM posts ORDER BY id`);
  const lists = (model: Awaited<ReturnType<typeof harness.fresh>>) =>
    model.rows(
      `SELECT list, sum(size)::int AS size FROM page_blocks GROUP BY list
       UNION ALL SELECT 'post_tags:' || tag_key, count(*)::int FROM post_tags GROUP BY tag_key ORDER BY 1`,
    );

  it.each([1, 3, 100])(
    'when hidden, locked, pinned and taken back in batches of %i, then each post has its latest marks and the lists leave out the hidden and (the home page) the pinned',
    async (batchSize) => {
      const model = await harness.fresh(postsProjection);
      await model.given(log(), batchSize);
      expect(await marks(model)).toEqual([
        { id: uuidOf(1), hidden_reason: 'Off topic', hidden: true, locked: false, lock_reason: null, pinned: false },
        { id: uuidOf(2), hidden_reason: null, hidden: false, locked: false, lock_reason: null, pinned: false },
        { id: uuidOf(3), hidden_reason: null, hidden: false, locked: true, lock_reason: 'Heated', pinned: true },
        { id: uuidOf(4), hidden_reason: null, hidden: false, locked: false, lock_reason: null, pinned: false },
      ]);
      // newest and popular: posts 2 and 4 (1 hidden, 3 pinned); React: 2 and 3 (1 hidden; a pinned post stays in its tags)
      expect(await lists(model)).toEqual([
        { list: 'newest', size: 2 },
        { list: 'popular', size: 2 },
        { list: 'post_tags:react', size: 2 },
        { list: 'tag:react', size: 2 },
      ]);
      expect(await model.inSchema((trx) => pageBlockProblems(trx))).toEqual([]);
    },
  );

  it.each([1, 4, 1000])('when staged in ranges of %i, then the tables are those the ordinary replay gives', async (batchSize) => {
    const { rebuilt } = await harness.liveAndReplayed(postsProjection, log(), batchSize, ['posts', 'post_tags', 'counters', 'tag_counters', 'author_stats']);
    expect(await marks(rebuilt)).toHaveLength(4);
  });
});

describe('given a statement that rewrites every post but none of their tags (a rebuild settling the votes and counts)', () => {
  it("then the anchors' trigger tells that no tags changed by reading the old and the new rows once each, not each old row against each new one", async () => {
    const build = await harness.fresh(postsProjection);
    await build.given(Array.from({ length: 300 }, (_, i) => created(2000 + i, 'u-ann', ['React'])));
    // the plans of the statements the trigger runs, as notices (auto_explain ships with PostgreSQL)
    const pool = harness.db.client as KnexPool;
    const connection = await pool.acquireConnection();
    const plans: string[] = [];
    const stop = await explainInto(connection, plans);
    try {
      // as a replay's statements run: the anchors wait for the end, the tag lists are kept at once
      await connection.query(`SET search_path TO "${build.schema}", public; SET forum.deferred TO 'on'`);
      await connection.query('UPDATE posts SET comment_count = comment_count + 1');
    } finally {
      await stop();
      await pool.releaseConnection(connection);
    }
    const transitionReads = plans.filter((plan) => plan.includes('Named Tuplestore Scan'));
    expect(transitionReads.length).toBeGreaterThan(0);
    for (const plan of transitionReads) expect(plan).not.toMatch(/Nested Loop/);
  });
});
