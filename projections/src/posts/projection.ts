import {
  ERASED_VALUES,
  summarizeSql,
  type AccountErased,
  type CommentAdded,
  type CommentRemoved,
  type PostCreated,
  type PostDeleted,
  type ProfileUpdated,
  type Vote,
  type VoteCast,
} from '@forum/contracts';
import type { LogRange, RecordedEvent, SqlLog } from '@forum/eventstore';
import type { Knex } from '@forum/platform';
import {
  AUTHOR,
  carryProfileChange,
  anyErasureIn,
  ERASED_IN_LOG,
  ONE_ERASURE,
  oneErasure,
  eraseStagedProfileChanges,
  LATEST_PROFILE_CHANGES,
  LATEST_PROFILE_CHANGES_IN_LOG,
  mergeProfileChange,
  REPLAY_PROFILES_TABLE,
  stageProfileChanges,
  type MergedProfileChange,
} from '../profile-changes.ts';
import { logRelation, type Projection } from '../runner/projection.ts';
import { extendSpans, REPLAY_SPANS_TABLE, takeSpan } from '../staged-spans.ts';
import { PAGE_BLOCKS_MIGRATION, pageBlockProblems, rebuildPageBlocks } from './pages.ts';

/**
 * Posts as the home page, the post page, the searches, the leaderboard and the
 * profile read them. Totals are counter rows (the posts total, posts per tag,
 * posts and up-votes per author): a count(*) per request does not scale (about
 * 17 req/s at 1M posts on this machine, against thousands from a row).
 *
 * Votes and comments reach a post as deltas: a VoteCast says `previous` →
 * `vote`, so the counts follow without reading any other vote, and a batch of
 * votes on one post becomes one UPDATE of that post.
 *
 * The read indexes (newest, popular, tags, full text, an author's newest) come
 * in `indexes`, built once a replay has caught up, so a replay does not rewrite
 * their entries at every vote.
 *
 * A rebuild replays in stages, set-wise from the log (`stage`): votes, comment
 * counts and name changes are settled once at the end (`settle`) by reading the
 * staged stretch of the log again (`replay_spans`), rather than rewriting a wide
 * post row at every vote. Each post keeps the log position it was created at
 * (`created_pos`), so a settled name change reaches exactly the posts it reached
 * in the log.
 *
 * Each post's full-text vector lives in a table of its own (`post_search`),
 * which `read.posts` joins in as its `search` column: a staged replay builds the
 * vectors as a settle step beside the votes and counts, rather than on the one
 * connection that stages the posts range by range. It keeps the post's creation
 * time under an index newest first, so a full-text search for a common word
 * walks the vectors in creation order, a page or two per hundred posts, instead
 * of looking each post up by id.
 *
 * `author_stats.comments` (My Profile's second statistic) moves by the same
 * comment deltas as the posts' own counts. Each page block keeps its size in its
 * key's index (`INCLUDE (size)`, pages.ts), so a deep page sums a list's block
 * sizes from the index alone.
 */
export const postsProjection: Projection = {
  name: 'posts',
  // what each version changed: docs/projections-versions.md
  version: 10,
  types: ['PostCreated', 'PostDeleted', 'VoteCast', 'CommentAdded', 'CommentRemoved', 'ProfileUpdated', 'AccountErased'],
  // a comment counts by its post's id: its text and author are not read
  opens: ['PostCreated', 'ProfileUpdated'],
  exposes: {
    // a post's vector is unique to it: a read that takes no `search` leaves the join out
    posts: { select: 'SELECT p.*, s.search FROM posts p LEFT JOIN post_search s ON s.id = p.id', tables: ['posts', 'post_search'] },
    post_counters: 'counters', post_votes: 'votes', author_stats: 'author_stats', post_tag_counters: 'tag_counters',
    post_page_blocks: 'page_blocks', post_page_settings: 'page_settings', post_tags: 'post_tags', post_search: 'post_search' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS posts (
        id uuid PRIMARY KEY,
        title text NOT NULL,
        description text NOT NULL,
        summary text NOT NULL,
        tags text[] NOT NULL,
        -- tag search ignores case: the lower-cased tags
        tag_keys text[] NOT NULL DEFAULT '{}',
        author_id text NOT NULL,
        author_name text NOT NULL,
        author_email text NOT NULL,
        author_photo text NOT NULL,
        created_at timestamptz NOT NULL,
        -- the log position of its PostCreated
        created_pos bigint NOT NULL,
        up_vote integer NOT NULL DEFAULT 0,
        down_vote integer NOT NULL DEFAULT 0,
        comment_count integer NOT NULL DEFAULT 0,
        score integer GENERATED ALWAYS AS (up_vote - down_vote) STORED
      );
      -- each post's full-text vector (SEARCH_VECTOR), written with the post (a staged replay: when it settles)
      CREATE TABLE IF NOT EXISTS post_search (
        id uuid PRIMARY KEY,
        -- the post's, to walk the vectors newest first
        created_at timestamptz NOT NULL,
        search tsvector NOT NULL
      );
      -- Room on each page for one more version of every row: a settle's rewrite of each post, and a
      -- vote or comment count that changes no indexed column (all of them while a replay builds
      -- without the read indexes; comment counts and author names live), then stay on their page
      -- (HOT), with less WAL and a smaller table (the figures: docs/performance.md).
      ALTER TABLE posts SET (fillfactor = 50);
      -- a user's newest posts (profile, My Posts); also how a profile change finds the author's posts
      CREATE INDEX IF NOT EXISTS posts_author_newest ON posts (author_id, created_at DESC, id DESC);
      CREATE TABLE IF NOT EXISTS counters (name text PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO counters (name, value) VALUES ('posts', 0) ON CONFLICT DO NOTHING;
      -- the number of posts per lower-cased tag
      CREATE TABLE IF NOT EXISTS tag_counters (tag_key text PRIMARY KEY, posts integer NOT NULL);
      -- each voter's current vote (the post page shows the caller's own)
      CREATE TABLE IF NOT EXISTS votes (
        post_id uuid NOT NULL,
        user_id text NOT NULL,
        vote text NOT NULL,
        PRIMARY KEY (post_id, user_id)
      );
      -- per author: live posts, and the up-votes and comments they received (leaderboard, profile)
      CREATE TABLE IF NOT EXISTS author_stats (
        user_id text PRIMARY KEY,
        name text NOT NULL,
        photo_url text NOT NULL,
        posts integer NOT NULL DEFAULT 0,
        up_votes integer NOT NULL DEFAULT 0,
        comments integer NOT NULL DEFAULT 0
      );
      -- a replay's stretch of the log to settle votes and counts from, and its name and photo changes
      -- with their log positions, until it settles (empty otherwise)
      ${REPLAY_SPANS_TABLE};
      ${REPLAY_PROFILES_TABLE};
    `);
    await trx.raw(PAGE_BLOCKS_MIGRATION);
  },
  afterReplay: rebuildPageBlocks,
  derived: { views: ['post_page_blocks', 'post_page_settings'], problems: pageBlockProblems },
  // A vote rewrites its post's entry in each of these (the score changes): nothing else is indexed
  indexes: {
    posts: [
      'CREATE INDEX IF NOT EXISTS posts_newest ON posts (created_at DESC, id DESC)',
      'CREATE INDEX IF NOT EXISTS posts_popular ON posts (score DESC, created_at DESC, id DESC)',
      'CREATE INDEX IF NOT EXISTS posts_tag_keys ON posts USING gin (tag_keys)',
    ],
    post_search: [
      'CREATE INDEX IF NOT EXISTS posts_search ON post_search USING gin (search)',
      'CREATE INDEX IF NOT EXISTS post_search_newest ON post_search (created_at DESC, id DESC)',
    ],
    author_stats: ['CREATE INDEX IF NOT EXISTS author_stats_top ON author_stats (up_votes DESC, name, user_id) WHERE up_votes > 0'],
  },
  apply: applyBatch,
  replay: {
    stage,
    // each voter's latest vote with the posts' counts and names (one read of the log for both), and
    // the posts' vectors, at once: two steps of about 4.7 s each per million events
    settle: [settleVotesCountsAndNames, settleSearch],
  },
};

async function applyBatch(trx: Knex.Transaction, events: readonly RecordedEvent[]) {
  // A batch is folded here and written in at most four statements, whatever its size, in an
  // order that gives what the log's order gives:
  //   1. authors' name and photo changes, on the rows that were there before the batch (the
  //      batch's own posts carry the changes that came after them);
  //   2. the batch's posts; 3. its votes and comment counts, as deltas per post (a vote or
  //      comment is decided on an existing post, so after the post in the log);
  //   4. its deletions: a post created and deleted in the batch is counted and uncounted, and
  //      what raced a deletion (a vote, a comment) is counted on the row and leaves with it.
  // The one order these steps cannot give, a post created after a vote, comment or deletion of
  // its id in the batch, cannot come from the command side; it starts a new segment all the same.
  // An erasure ends a segment too: it is written after what came before it.
  let segment = newSegment();
  for (const event of events) {
    switch (event.type) {
      case 'PostCreated': {
        const post = (event as RecordedEvent<'PostCreated', PostCreated['data']>).data;
        if (segment.touched.has(post.postId)) {
          await applySegment(trx, segment);
          segment = newSegment();
        }
        // the first of two creates of one id wins (ON CONFLICT DO NOTHING), in the batch as in the table
        if (!segment.created.has(post.postId)) segment.created.set(post.postId, { ...post, createdPos: event.position.globalPosition.toString() });
        break;
      }
      case 'VoteCast': {
        const { postId, userId, previous, vote } = (event as RecordedEvent<'VoteCast', VoteCast['data']>).data;
        const delta = deltaOf(segment, postId);
        delta.up += Number(vote === 'up') - Number(previous === 'up');
        delta.down += Number(vote === 'down') - Number(previous === 'down');
        segment.votes.set(`${postId} ${userId}`, { postId, userId, vote, pos: event.position.globalPosition.toString() });
        break;
      }
      case 'CommentAdded':
        deltaOf(segment, (event as RecordedEvent<'CommentAdded', CommentAdded['data']>).data.postId).comments += 1;
        break;
      case 'CommentRemoved':
        deltaOf(segment, (event as RecordedEvent<'CommentRemoved', CommentRemoved['data']>).data.postId).comments -= 1;
        break;
      case 'PostDeleted': {
        const { postId } = (event as RecordedEvent<'PostDeleted', PostDeleted['data']>).data;
        segment.touched.add(postId);
        segment.deleted.add(postId);
        break;
      }
      case 'ProfileUpdated': {
        // posts and the leaderboard show their author's current name and photo; only the
        // fields the update changed (a v1 event arrives upcast with both)
        const { userId, changes } = (event as RecordedEvent<'ProfileUpdated', ProfileUpdated['data']>).data;
        mergeProfileChange(segment.profileChanges, userId, changes);
        carryProfileChange(segment.created.values(), AUTHOR, userId, changes);
        break;
      }
      case 'AccountErased': {
        // after everything before it; their posts themselves were deleted by their own events if they chose so
        await applySegment(trx, segment);
        segment = newSegment();
        await eraseAuthors(trx, ONE_ERASURE, oneErasure((event as RecordedEvent<'AccountErased', AccountErased['data']>).data));
        break;
      }
      default:
        break;
    }
  }
  await applySegment(trx, segment);
}

type CreatedPost = PostCreated['data'] & { createdPos: string };

interface Segment {
  created: Map<string, CreatedPost>;
  deltas: Map<string, { up: number; down: number; comments: number }>;
  /** Each voter's latest vote on a post. */
  votes: Map<string, { postId: string; userId: string; vote: Vote; pos: string }>;
  deleted: Set<string>;
  /** Name and photo changes, merged per person. */
  profileChanges: Map<string, MergedProfileChange>;
  /** Post ids with a delta or a deletion in the segment. */
  touched: Set<string>;
}

function newSegment(): Segment {
  return { created: new Map(), deltas: new Map(), votes: new Map(), deleted: new Set(), profileChanges: new Map(), touched: new Set() };
}

function deltaOf(segment: Segment, postId: string) {
  let delta = segment.deltas.get(postId);
  if (!delta) {
    segment.deltas.set(postId, (delta = { up: 0, down: 0, comments: 0 }));
    segment.touched.add(postId);
  }
  return delta;
}

async function applySegment(trx: Knex.Transaction, segment: Segment) {
  if (segment.profileChanges.size > 0) {
    const changes = [...segment.profileChanges.values()];
    const ids = changes.map((change) => change.userId);
    await trx.raw(
        `UPDATE posts p SET author_name = coalesce(x.name, p.author_name), author_photo = coalesce(x."photoURL", p.author_photo)
         FROM jsonb_to_recordset(?::jsonb) AS x("userId" text, name text, "photoURL" text)
         WHERE p.author_id = x."userId" AND p.author_id = ANY (?::text[])`,
        // the ids again as an array: the planner then reads the rows through the index, not the whole table
      [JSON.stringify(changes), ids],
    );
    // the leaderboard's rows (one per person)
    await trx.raw(
      `UPDATE author_stats s SET name = coalesce(x.name, s.name), photo_url = coalesce(x."photoURL", s.photo_url)
       FROM jsonb_to_recordset(?::jsonb) AS x("userId" text, name text, "photoURL" text) WHERE s.user_id = x."userId" AND s.user_id = ANY (?::text[])`,
      [JSON.stringify(changes), ids],
    );
  }
  if (segment.created.size > 0) await insertPosts(trx, [...segment.created.values()]);
  if (segment.deltas.size > 0) {
    await applyDeltas(
      trx,
      [...segment.deltas].filter(([, d]) => d.up !== 0 || d.down !== 0 || d.comments !== 0).map(([postId, delta]) => ({ postId, ...delta })),
      [...segment.votes.values()].map(({ postId, userId, vote }) => ({ postId, userId, vote })),
    );
  }
  // the posts leave the lists, the totals, their tags' counts and their authors' statistics
  if (segment.deleted.size > 0) await deletePosts(trx, 'SELECT unnest(?::uuid[])', [[...segment.deleted]]);
}

/**
 * Erased members (rows of user_id and content that `erasures` selects) are 'Deleted user' on their
 * posts and the leaderboard, with no email or photo, and their posts' text is erased where it went
 * too: what their events read as from now on, so that a replay writes the same rows. (Their posts
 * themselves were deleted by their own events then; this reaches what those missed.)
 */
async function eraseAuthors(trx: Knex.Transaction, erasures: string, bindings: readonly Knex.RawBinding[]) {
  const { name, email, photo, text } = ERASED_VALUES;
  await trx.raw(
    `WITH erased AS (SELECT x.user_id, x.content = 'erased' AS content, ?::text AS text FROM (${erasures}) x),
     written AS (
       UPDATE posts p SET author_name = ?, author_email = ?, author_photo = ?,
         -- the erased text ('') is its own summary, and has no words to search by
         title = CASE WHEN e.content THEN e.text ELSE p.title END,
         description = CASE WHEN e.content THEN e.text ELSE p.description END,
         summary = CASE WHEN e.content THEN e.text ELSE p.summary END
       FROM erased e WHERE p.author_id = e.user_id
       RETURNING p.id, e.content
     ),
     searched AS (UPDATE post_search s SET search = ''::tsvector FROM written w WHERE s.id = w.id AND w.content)
     UPDATE author_stats SET name = ?, photo_url = ? WHERE user_id IN (SELECT user_id FROM erased)`,
    [text, ...bindings, name, email, photo, name, photo],
  );
}

/** Deletes the posts whose ids `ids` selects, with what counts them. */
async function deletePosts(trx: Knex.Transaction, ids: string, bindings: readonly Knex.RawBinding[]) {
  await trx.raw(
    `WITH gone AS (DELETE FROM posts WHERE id IN (${ids}) RETURNING id, author_id, up_vote, comment_count, tag_keys),
     totals AS (UPDATE counters SET value = value - (SELECT count(*) FROM gone) WHERE name = 'posts'),
     tags AS (
       UPDATE tag_counters t SET posts = t.posts - g.n
       FROM (SELECT k, count(*)::integer AS n FROM gone, unnest(tag_keys) AS k GROUP BY k) g WHERE t.tag_key = g.k
     ),
     voters AS (DELETE FROM votes v USING gone g WHERE v.post_id = g.id),
     searched AS (DELETE FROM post_search s USING gone g WHERE s.id = g.id)
     UPDATE author_stats s SET posts = s.posts - g.n, up_votes = s.up_votes - g.up, comments = s.comments - g.comments
     FROM (SELECT author_id, count(*)::integer AS n, sum(up_vote)::integer AS up, sum(comment_count)::integer AS comments FROM gone GROUP BY author_id) g
     WHERE s.user_id = g.author_id`,
    bindings,
  );
}

async function insertPosts(trx: Knex.Transaction, created: readonly CreatedPost[]) {
  await insertPostsFrom(
    trx,
    'with their vectors',
    `SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(
       "postId" uuid, title text, description text, tags text[], "authorId" text,
       "authorName" text, "authorEmail" text, "authorPhoto" text, "createdAt" timestamptz, "createdPos" bigint)`,
    [JSON.stringify(created)],
  );
}

/** A post's full-text vector: its title (weight A) and description (B). */
const SEARCH_VECTOR = `setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B')`;

/**
 * Inserts the posts `input` selects (columns as PostCreated's data, and
 * "createdPos"), with their summaries and lower-cased tags, and counts them:
 * the total, per tag, per author (whose name and photo are taken from their
 * newest post). The first of two creates of one id wins. A staged replay
 * leaves their vectors to its settle (`settleSearch`).
 */
async function insertPostsFrom(trx: Knex.Transaction, vectors: 'with their vectors' | 'vectors when settled', input: string, bindings: readonly Knex.RawBinding[]) {
  const searchable = vectors === 'with their vectors' ? `searchable AS (INSERT INTO post_search (id, created_at, search) SELECT id, created_at, ${SEARCH_VECTOR} FROM inserted),` : '';
  await trx.raw(
    `WITH input AS (${input}),
     inserted AS (
       INSERT INTO posts (id, title, description, summary, tags, tag_keys, author_id, author_name, author_email, author_photo, created_at, created_pos)
       SELECT "postId", title, description, ${summarizeSql('description')}, tags,
              -- each tag once, lower-cased, in the order of the tags
              ARRAY(SELECT k FROM (SELECT lower(t) AS k, min(o) AS o FROM unnest(tags) WITH ORDINALITY AS x(t, o) GROUP BY 1) keys ORDER BY o),
              "authorId", "authorName", "authorEmail", "authorPhoto", "createdAt", "createdPos"
       FROM input
       ON CONFLICT (id) DO NOTHING
       RETURNING id, title, description, author_id, author_name, author_photo, tag_keys, created_at
     ),
     ${searchable}
     totals AS (UPDATE counters SET value = value + (SELECT count(*) FROM inserted) WHERE name = 'posts'),
     tags AS (
       INSERT INTO tag_counters (tag_key, posts)
       SELECT k, count(*) FROM inserted, unnest(tag_keys) AS k GROUP BY k
       ON CONFLICT (tag_key) DO UPDATE SET posts = tag_counters.posts + excluded.posts
     )
     INSERT INTO author_stats (user_id, name, photo_url, posts)
     SELECT DISTINCT ON (author_id) author_id, author_name, author_photo, count(*) OVER (PARTITION BY author_id)
     FROM inserted ORDER BY author_id, created_at DESC
     ON CONFLICT (user_id) DO UPDATE SET posts = author_stats.posts + excluded.posts, name = excluded.name, photo_url = excluded.photo_url`,
    bindings,
  );
}

/** The authors' up-votes and comments received follow their posts' (`changed`: rows of author_id and the post's up-vote and comment deltas). */
const AUTHORS_COUNTS = `
  UPDATE author_stats s SET up_votes = s.up_votes + a.up, comments = s.comments + a.comments
  FROM (SELECT author_id, sum(up)::integer AS up, sum(comments)::integer AS comments FROM changed GROUP BY author_id) a
  WHERE s.user_id = a.author_id AND (a.up <> 0 OR a.comments <> 0)`;

/**
 * Vote and comment deltas per post, the authors' up-votes that follow, and each
 * voter's latest vote, in one statement. A post deleted meanwhile has no row,
 * so what arrives for it changes nothing.
 */
async function applyDeltas(
  trx: Knex.Transaction,
  changes: readonly { postId: string; up: number; down: number; comments: number }[],
  cast: readonly { postId: string; userId: string; vote: Vote }[],
) {
  await trx.raw(
    `WITH delta AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x("postId" uuid, up integer, down integer, comments integer)),
     changed AS (
       UPDATE posts p SET up_vote = p.up_vote + d.up, down_vote = p.down_vote + d.down, comment_count = p.comment_count + d.comments
       FROM delta d WHERE p.id = d."postId" AND (d.up <> 0 OR d.down <> 0 OR d.comments <> 0)
       RETURNING p.author_id, d.up, d.comments
     ),
     authors AS (${AUTHORS_COUNTS}),
     cast_votes AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x("postId" uuid, "userId" text, vote text))
     INSERT INTO votes (post_id, user_id, vote)
     SELECT v."postId", v."userId", v.vote FROM cast_votes v WHERE EXISTS (SELECT 1 FROM posts p WHERE p.id = v."postId")
     ON CONFLICT (post_id, user_id) DO UPDATE SET vote = excluded.vote`,
    [JSON.stringify(changes), JSON.stringify(cast)],
  );
}

/**
 * A range of the log, staged (see `Projection.replay`), in the order the
 * ordinary replay of a batch takes: the range's posts (each with its name as
 * the event has it) and what counts them; the range's name changes on the
 * leaderboard where they come after the person's newest post of the range
 * (the posts take theirs when the replay settles); then the deletions. The
 * range joins the span its votes and counts settle from. A post's row carries
 * no votes before the replay settles, so a deletion takes none from its
 * author's up-votes, and the votes of deleted posts settle into nothing.
 */
async function stage(trx: Knex.Transaction, log: Knex.Raw, range: LogRange) {
  await stageProfileChanges(trx, log);
  await insertPostsFrom(
    trx,
    'vectors when settled',
    `SELECT DISTINCT ON ((data->>'postId')::uuid)
            (data->>'postId')::uuid AS "postId", data->>'title' AS title, data->>'description' AS description,
            ARRAY(SELECT t FROM jsonb_array_elements_text(data->'tags') WITH ORDINALITY AS x(t, o) ORDER BY o) AS tags,
            data->>'authorId' AS "authorId", data->>'authorName' AS "authorName", data->>'authorEmail' AS "authorEmail",
            data->>'authorPhoto' AS "authorPhoto", (data->>'createdAt')::timestamptz AS "createdAt", pos AS "createdPos"
     FROM ? e WHERE type = 'PostCreated' ORDER BY (data->>'postId')::uuid, pos`,
    [log],
  );
  await trx.raw(
    `WITH changes AS (${LATEST_PROFILE_CHANGES_IN_LOG}),
     -- the author's id as stored: the posts need not be opened again for it
     newest_post AS (SELECT stored->>'authorId' AS user_id, max(pos) AS pos FROM ? e WHERE type = 'PostCreated' GROUP BY 1)
     UPDATE author_stats s SET
       name = CASE WHEN c.name_pos > coalesce(p.pos, 0) THEN c.name ELSE s.name END,
       photo_url = CASE WHEN c.photo_pos > coalesce(p.pos, 0) THEN c.photo_url ELSE s.photo_url END
     FROM changes c LEFT JOIN newest_post p ON p.user_id = c.user_id WHERE s.user_id = c.user_id`,
    [log, log],
  );
  await deletePosts(trx, `SELECT (data->>'postId')::uuid FROM ? e WHERE type = 'PostDeleted'`, [log]);
  // the range's erasures, last (a build staged before them holds what their events said then)
  if (await anyErasureIn(trx, log)) {
    await eraseAuthors(trx, ERASED_IN_LOG, [log]);
    await eraseStagedProfileChanges(trx, log);
  }
  await extendSpans(trx, [VOTES, COUNTS], range);
}

/** The settle reads votes and comments by their posts' ids: none of their personal data (see `Projection.opens`). */
const NOT_OPENED: readonly string[] = [];

/** A relation shaped as `SqlLog.events`' (pos, type, data), with no rows. */
const NO_EVENTS = "(SELECT 0::bigint AS pos, ''::text AS type, '{}'::jsonb AS data WHERE false)";

/** The spans votes and counts settle from: two names, as builds staged before they settled together kept them (taken one at a time then). */
const VOTES = 'votes';
const COUNTS = 'counts';

/**
 * Completes a staged replay (with `settleSearch`, which touches other rows),
 * reading the staged stretch of the log once: each voter's latest vote; each
 * post's vote and comment counts and its author's up-votes move by the
 * stretch's deltas (a VoteCast says `previous` → `vote`, as the ordinary
 * replay counts them); and a post created before its author's latest name or
 * photo change takes it. Each post's row is rewritten once. What was cast on
 * posts deleted since changes nothing (their rows are gone).
 */
async function settleVotesCountsAndNames(trx: Knex.Transaction, log: SqlLog) {
  const votes = await takeSpan(trx, VOTES);
  const counts = await takeSpan(trx, COUNTS);
  // staging extends both in one statement: apart, one was settled already (by a build before they settled together)
  const span = counts ?? votes;
  if (votes && counts && (votes.after.globalPosition !== counts.after.globalPosition || votes.upTo.globalPosition !== counts.upTo.globalPosition)) {
    throw new Error('the staged spans of votes and counts differ');
  }
  // Each event's deltas and vote in narrow rows, read once for both (OFFSET 0 keeps the planner from
  // pulling the deltas up into the grouping, which then sorted 835k whole events per million,
  // spilling 258 MB to disk, instead of hashing narrow rows); a million events: 82 MB in memory
  const events = trx.raw(
    `SELECT (data->>'postId')::uuid AS post_id, data->>'userId' AS user_id, data->>'vote' AS vote, pos,
            CASE WHEN type = 'VoteCast' THEN (data->>'vote' = 'up')::integer - (data->>'previous' = 'up')::integer ELSE 0 END AS up,
            CASE WHEN type = 'VoteCast' THEN (data->>'vote' = 'down')::integer - (data->>'previous' = 'down')::integer ELSE 0 END AS down,
            CASE type WHEN 'CommentAdded' THEN 1 WHEN 'CommentRemoved' THEN -1 ELSE 0 END AS comments
     FROM ? e OFFSET 0`,
    // no span (nothing staged since the last settle, names still to settle): a log with no events
    [span ? logRelation(trx, log, span, counts ? ['VoteCast', 'CommentAdded', 'CommentRemoved'] : ['VoteCast'], NOT_OPENED) : trx.raw(NO_EVENTS)],
  );
  // A build's first settle finds no votes to conflict with: a plain insert then skips the
  // speculative insertion ON CONFLICT makes of each row (1 s instead of 2.6 s for 540k votes)
  const voted = votes && (await anyRow(trx, 'votes'));
  await trx.raw(
    `WITH e AS (?),
     sums AS (SELECT post_id, sum(up)::integer AS up, sum(down)::integer AS down, sum(comments)::integer AS comments FROM e ${counts ? '' : 'WHERE false'} GROUP BY 1),
     latest AS (${LATEST_PROFILE_CHANGES}),
     settled AS (
       SELECT q.id, coalesce(s.up, 0) AS up, coalesce(s.down, 0) AS down, coalesce(s.comments, 0) AS comments,
              CASE WHEN q.created_pos < c.name_pos THEN c.name ELSE q.author_name END AS author_name,
              CASE WHEN q.created_pos < c.photo_pos THEN c.photo_url ELSE q.author_photo END AS author_photo
       FROM posts q LEFT JOIN sums s ON s.post_id = q.id LEFT JOIN latest c ON c.user_id = q.author_id
       WHERE s.up <> 0 OR s.down <> 0 OR s.comments <> 0 OR q.created_pos < c.name_pos OR q.created_pos < c.photo_pos
     ),
     changed AS (
       UPDATE posts p SET up_vote = p.up_vote + x.up, down_vote = p.down_vote + x.down, comment_count = p.comment_count + x.comments,
              author_name = x.author_name, author_photo = x.author_photo
       FROM settled x WHERE p.id = x.id
       RETURNING p.author_id, x.up, x.comments
     ),
     authors AS (${AUTHORS_COUNTS})
     ${
       votes
         ? `INSERT INTO votes (post_id, user_id, vote)
            SELECT DISTINCT ON (v.post_id, v.user_id) v.post_id, v.user_id, v.vote
            FROM e v WHERE v.vote IS NOT NULL AND EXISTS (SELECT 1 FROM posts p WHERE p.id = v.post_id)
            ORDER BY v.post_id, v.user_id, v.pos DESC
            ${voted ? 'ON CONFLICT (post_id, user_id) DO UPDATE SET vote = excluded.vote' : ''}`
         : 'SELECT'
     }`,
    [events],
  );
  await trx.raw('TRUNCATE replay_profiles');
}

/**
 * Each post staged gets its full-text vector (44 µs a post, the longest step:
 * 4.6 s per million events). It reads the posts' rows while
 * `settleVotesCountsAndNames` rewrites them, and writes only `post_search`.
 */
async function settleSearch(trx: Knex.Transaction) {
  // a build's first settle finds no vectors yet: nothing to look for
  const searchable = await anyRow(trx, 'post_search');
  await trx.raw(
    `INSERT INTO post_search (id, created_at, search) SELECT id, created_at, ${SEARCH_VECTOR} FROM posts p
     ${searchable ? 'WHERE NOT EXISTS (SELECT 1 FROM post_search s WHERE s.id = p.id)' : ''}`,
  );
}

/** Whether a table has a row: a first settle finds its table empty and can skip looking for conflicts. */
async function anyRow(trx: Knex.Transaction, table: string): Promise<boolean> {
  const { rows } = await trx.raw<{ rows: { any: boolean }[] }>('SELECT EXISTS (SELECT 1 FROM ??) AS any', [table]);
  return rows[0]!.any;
}
