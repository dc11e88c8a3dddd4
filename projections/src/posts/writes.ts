import { ERASED_VALUES, summarizeSql } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { editedRow, revisionsGone, revisionsWritten, type Revisable } from '../revisions.ts';

// Statements that write posts with what counts them (the total, per tag, per author), shared by
// the ordinary replay of a batch (apply.ts) and the staged replay (replay.ts).

/**
 * Erased members (rows of user_id and content that `erasures` selects) are 'Deleted user' on their
 * posts and the leaderboard, with no email or photo, and their posts' text is erased where it went
 * too: what their events read as from now on, so that a replay writes the same rows. (Their posts
 * themselves were deleted by their own events then; this reaches what those missed.)
 */
export async function eraseAuthors(trx: Knex.Transaction, erasures: string, bindings: readonly Knex.RawBinding[]) {
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
     searched AS (UPDATE post_search s SET search = ''::tsvector FROM written w WHERE s.id = w.id AND w.content),
     revised AS (UPDATE post_revisions r SET title = ?, description = ? FROM written w WHERE r.post_id = w.id AND w.content)
     UPDATE author_stats SET name = ?, photo_url = ? WHERE user_id IN (SELECT user_id FROM erased)`,
    [text, ...bindings, name, email, photo, text, text, name, photo],
  );
}

/** Deletes the posts whose ids `ids` selects, with what counts them. */
export async function deletePosts(trx: Knex.Transaction, ids: string, bindings: readonly Knex.RawBinding[]) {
  await trx.raw(
    `WITH gone AS (DELETE FROM posts WHERE id IN (${ids}) RETURNING id, author_id, up_vote, comment_count, tag_keys),
     totals AS (UPDATE counters SET value = value - (SELECT count(*) FROM gone) WHERE name = 'posts'),
     tags AS (
       UPDATE tag_counters t SET posts = t.posts - g.n
       FROM (SELECT k, count(*)::integer AS n FROM gone, unnest(tag_keys) AS k GROUP BY k) g WHERE t.tag_key = g.k
     ),
     voters AS (DELETE FROM votes v USING gone g WHERE v.post_id = g.id),
     searched AS (DELETE FROM post_search s USING gone g WHERE s.id = g.id),
     revised AS (${revisionsGone(POST_REVISIONS, 'gone')})
     UPDATE author_stats s SET posts = s.posts - g.n, up_votes = s.up_votes - g.up, comments = s.comments - g.comments
     FROM (SELECT author_id, count(*)::integer AS n, sum(up_vote)::integer AS up, sum(comment_count)::integer AS comments FROM gone GROUP BY author_id) g
     WHERE s.user_id = g.author_id`,
    bindings,
  );
}

/** Each of the tags once, lower-cased, in the order of the tags. */
const tagKeys = (tags: string) =>
  `ARRAY(SELECT k FROM (SELECT lower(t) AS k, min(o) AS o FROM unnest(${tags}) WITH ORDINALITY AS x(t, o) GROUP BY 1) keys ORDER BY o)`;

/** A post's full-text vector: its title (weight A) and description (B). */
export const SEARCH_VECTOR = `setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B')`;

/**
 * Inserts the posts `input` selects (columns as PostCreated's data, and
 * "createdPos"), with their summaries and lower-cased tags, and counts them:
 * the total, per tag, per author (whose name and photo are taken from their
 * newest post). The first of two creates of one id wins. A staged replay
 * leaves their vectors to its settle (`settleSearch`).
 */
export async function insertPostsFrom(
  trx: Knex.Transaction,
  vectors: 'with their vectors' | 'vectors when settled',
  input: string,
  bindings: readonly Knex.RawBinding[],
) {
  const searchable =
    vectors === 'with their vectors'
      ? `searchable AS (INSERT INTO post_search (id, created_at, search) SELECT id, created_at, ${SEARCH_VECTOR} FROM inserted),`
      : '';
  await trx.raw(
    `WITH input AS (${input}),
     inserted AS (
       INSERT INTO posts (id, title, description, summary, tags, tag_keys, author_id, author_name, author_email, author_photo, created_at, created_pos)
       SELECT "postId", title, description, ${summarizeSql('description')}, tags,
              ${tagKeys('tags')},
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
export const AUTHORS_COUNTS = `
  UPDATE author_stats s SET up_votes = s.up_votes + a.up, comments = s.comments + a.comments
  FROM (SELECT author_id, sum(up)::integer AS up, sum(comments)::integer AS comments FROM changed GROUP BY author_id) a
  WHERE s.user_id = a.author_id AND (a.up <> 0 OR a.comments <> 0)`;

/** The posts' revisions (see revisions.ts). */
export const POST_REVISIONS: Revisable = {
  table: 'posts',
  revisions: 'post_revisions',
  key: 'post_id',
  fields: { title: 'text', description: 'text', tags: 'text[]' },
};

/**
 * Applies the edits `input` selects (columns as `editColumns(POST_REVISIONS)`): each post reads as
 * its latest, with its summary, its vector (where it has one already: a staged replay builds the
 * others' when it settles, from the rows) and its tags' counts moved; the revisions are written.
 */
export async function editPosts(trx: Knex.Transaction, input: string, bindings: readonly Knex.RawBinding[]) {
  await trx.raw(
    `WITH input AS (${input}),
     ${revisionsWritten(POST_REVISIONS)},
     was AS (SELECT p.id, p.tag_keys FROM posts p JOIN latest l ON l.id = p.id),
     written AS (
       UPDATE posts p SET ${editedRow(POST_REVISIONS)}, summary = ${summarizeSql('l.description')}, tag_keys = ${tagKeys('l.tags')}
       FROM latest l WHERE p.id = l.id
       RETURNING p.id, p.title, p.description, p.tag_keys
     ),
     searched AS (UPDATE post_search s SET search = ${SEARCH_VECTOR} FROM written w WHERE s.id = w.id)
     -- a tag a post leaves counts it no more, one it takes counts it; every tag an edit gave has its
     -- row (at 0 once the post left it again), as when the edits come one at a time
     INSERT INTO tag_counters (tag_key, posts)
     SELECT k, sum(d)::integer FROM (
       SELECT k, -1 AS d FROM was b, unnest(b.tag_keys) AS k
       UNION ALL SELECT k, 1 FROM written w, unnest(w.tag_keys) AS k
       UNION ALL SELECT lower(t), 0 FROM input i JOIN was b ON b.id = i.id, unnest(i.tags) AS t
     ) moves GROUP BY k
     ON CONFLICT (tag_key) DO UPDATE SET posts = tag_counters.posts + excluded.posts`,
    bindings,
  );
}

/**
 * Staff's marks on the posts `input` selects (issue #43), each post's latest of each kind: columns
 * id, then per mark whether it changes (`hide`, `lock`, `pin`: null when not) and its new values
 * (null: taken away). A post deleted meanwhile has no row: nothing changes.
 */
export async function moderatePosts(trx: Knex.Transaction, input: string, bindings: readonly Knex.RawBinding[]) {
  await trx.raw(
    `WITH input AS (${input})
     UPDATE posts p SET
       hidden_reason = CASE WHEN i.hide THEN i.hidden_reason ELSE p.hidden_reason END,
       hidden_at = CASE WHEN i.hide THEN i.hidden_at ELSE p.hidden_at END,
       locked = CASE WHEN i.lock THEN i.locked ELSE p.locked END,
       lock_reason = CASE WHEN i.lock THEN i.lock_reason ELSE p.lock_reason END,
       pinned_at = CASE WHEN i.pin THEN i.pinned_at ELSE p.pinned_at END
     FROM input i WHERE p.id = i.id`,
    bindings,
  );
}

/** The columns of `moderatePosts`' input in a live batch's jsonb rows. */
export const MODERATION_COLUMNS = `id uuid, hide boolean, hidden_reason text, hidden_at timestamptz, lock boolean, locked boolean, lock_reason text, pin boolean, pinned_at timestamptz`;

/** `moderatePosts`' input from a staged stretch of the log (`?`): each post's latest event of each mark. */
export const MODERATION_IN_LOG = `
  WITH m AS (SELECT (data->>'postId')::uuid AS id, type, data, pos FROM ? e
             WHERE type IN ('PostHidden', 'PostUnhidden', 'PostLocked', 'PostUnlocked', 'PostPinned', 'PostUnpinned')),
  h AS (SELECT DISTINCT ON (id) id, type = 'PostHidden' AS on, data FROM m WHERE type IN ('PostHidden', 'PostUnhidden') ORDER BY id, pos DESC),
  l AS (SELECT DISTINCT ON (id) id, type = 'PostLocked' AS on, data FROM m WHERE type IN ('PostLocked', 'PostUnlocked') ORDER BY id, pos DESC),
  p AS (SELECT DISTINCT ON (id) id, type = 'PostPinned' AS on, data FROM m WHERE type IN ('PostPinned', 'PostUnpinned') ORDER BY id, pos DESC)
  SELECT coalesce(h.id, l.id, p.id) AS id,
         h.id IS NOT NULL AS hide, CASE WHEN h.on THEN h.data->>'reason' END AS hidden_reason, CASE WHEN h.on THEN (h.data->>'hiddenAt')::timestamptz END AS hidden_at,
         l.id IS NOT NULL AS lock, coalesce(l.on, false) AS locked, CASE WHEN l.on THEN l.data->>'reason' END AS lock_reason,
         p.id IS NOT NULL AS pin, CASE WHEN p.on THEN (p.data->>'pinnedAt')::timestamptz END AS pinned_at
  FROM h FULL JOIN l ON l.id = h.id FULL JOIN p ON p.id = coalesce(h.id, l.id)`;
