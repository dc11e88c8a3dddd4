import type { LogRange, SqlLog } from '@forum/eventstore';
import type { Knex } from '@forum/platform';
import {
  anyErasureIn,
  ERASED_IN_LOG,
  eraseStagedProfileChanges,
  LATEST_PROFILE_CHANGES,
  LATEST_PROFILE_CHANGES_IN_LOG,
  stageProfileChanges,
} from '../profile-changes.ts';
import { logRelation } from '../runner/projection.ts';
import { extendSpans, takeSpan } from '../staged-spans.ts';
import { editsInLog } from '../revisions.ts';
import {
  AUTHORS_COUNTS,
  deletePosts,
  editPosts,
  eraseAuthors,
  insertPostsFrom,
  MODERATION_IN_LOG,
  moderatePosts,
  POST_REVISIONS,
  SEARCH_VECTOR,
} from './writes.ts';

/**
 * A range of the log, staged (see `Projection.replay`), in the order the
 * ordinary replay of a batch takes: the range's posts (each with its name as
 * the event has it) and what counts them; their edits; the range's name changes on the
 * leaderboard where they come after the person's newest post of the range
 * (the posts take theirs when the replay settles); then the deletions. The
 * range joins the span its votes and counts settle from. Staff's marks (hidden, locked, pinned) are
 * each post's latest of the range, before the deletions. A post's row carries
 * no votes before the replay settles, so a deletion takes none from its
 * author's up-votes, and the votes of deleted posts settle into nothing.
 */
export async function stage(trx: Knex.Transaction, log: Knex.Raw, range: LogRange) {
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
  await editPosts(trx, editsInLog(POST_REVISIONS, 'PostEdited', 'postId'), [log]);
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
  await moderatePosts(trx, MODERATION_IN_LOG, [log]);
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
export async function settleVotesCountsAndNames(trx: Knex.Transaction, log: SqlLog) {
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
export async function settleSearch(trx: Knex.Transaction) {
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
