import { ERASED_VALUES, type CommentAdded, type CommentEdited, type CommentReported } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import {
  AUTHOR,
  carryProfileChange,
  ERASED_IN_LOG,
  ONE_ERASURE,
  oneErasure,
  LATEST_PROFILE_CHANGES,
  mergeProfileChange,
  REPLAY_PROFILES_TABLE,
  stageProfileChanges,
  type MergedProfileChange,
} from '../profile-changes.ts';
import type { ProjectedEvent, Projection } from '../runner/projection.ts';
import { preparedInBuild } from '../runner/build-schema.ts';
import { EDITED_COLUMNS, editColumns, editedRow, editRow, editsInLog, revisionsGone, revisionsTable, revisionsWritten, type Revisable } from '../revisions.ts';

const REPORTER = { id: 'reporterId', name: 'reporterName', photo: 'reporterPhoto' } as const;

/**
 * A post's comments in order (the post page; a post's deletion), a person's
 * comments (a name change). A staged replay builds them once it has settled
 * rather than keep them through 277k inserts per million events: what it
 * looks up by them (a range's deleted posts, the settled names) it reads
 * set-wise anyway.
 */
const LOOKUPS = `CREATE INDEX IF NOT EXISTS comments_of_post ON comments (post_id, created_at, id);
  CREATE INDEX IF NOT EXISTS comments_author ON comments (author_id)`;

/**
 * Comments (the post page's list, oldest first), their open reports (the admin's
 * reported list) and the counts around them: comments in total and per author,
 * open reports in total and per comment.
 *
 * An edited comment reads as its latest edit; its revisions are kept beside it (revisions.ts).
 * A comment staff hid keeps its row with the reason and time (`hidden_reason`, `hidden_at`): the
 * read side lists it only to its author and staff (issue #43, docs/moderation.md).
 *
 * A comment leaves the lists when an admin removes it (its reports are resolved
 * with it) or when its post is deleted. Deleted posts are remembered, so a
 * comment that raced its post's deletion does not come back.
 *
 * Each comment and report keeps the log position it was written at, so that a
 * rebuild can record name and photo changes as facts and settle them once at
 * the end (a change reaches exactly the rows it reached in the log), rather
 * than rewriting a person's comments at every change.
 */
const COMMENTS_TYPES = [
  'CommentAdded',
  'CommentEdited',
  'CommentRemoved',
  'CommentReported',
  'CommentHidden',
  'CommentUnhidden',
  'PostDeleted',
  'ProfileUpdated',
  'AccountErased',
] as const;
type CommentsEvent = ProjectedEvent<(typeof COMMENTS_TYPES)[number]>;

export const commentsProjection: Projection<CommentsEvent> = {
  name: 'comments',
  // what each version changed: docs/projections-versions.md
  version: 5,
  types: COMMENTS_TYPES,
  exposes: {
    comments: 'comments',
    comment_revisions: 'revisions',
    comment_reports: 'reports',
    comment_counters: 'counters',
    commenter_stats: 'commenter_stats',
  },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS comments (
        id uuid PRIMARY KEY,
        post_id uuid NOT NULL,
        text text NOT NULL,
        author_id text NOT NULL,
        author_name text NOT NULL,
        author_email text NOT NULL,
        author_photo text NOT NULL,
        created_at timestamptz NOT NULL,
        -- the log position of its CommentAdded
        created_pos bigint NOT NULL,
        report_count integer NOT NULL DEFAULT 0,${EDITED_COLUMNS},
        -- hidden by staff: why and when (null: shown)
        hidden_reason text,
        hidden_at timestamptz
      );
      ${LOOKUPS};
      -- the revisions of edited comments
      ${revisionsTable(COMMENT_REVISIONS)};
      CREATE TABLE IF NOT EXISTS reports (
        id uuid NOT NULL UNIQUE,
        comment_id uuid NOT NULL,
        reporter_id text NOT NULL,
        reporter_name text NOT NULL,
        reporter_email text NOT NULL,
        reporter_photo text NOT NULL,
        feedback text NOT NULL,
        reported_at timestamptz NOT NULL,
        reported_pos bigint NOT NULL,
        PRIMARY KEY (comment_id, reporter_id)
      );
      CREATE INDEX IF NOT EXISTS reports_newest ON reports (reported_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS reports_reporter ON reports (reporter_id);
      CREATE TABLE IF NOT EXISTS deleted_posts (post_id uuid PRIMARY KEY);
      CREATE TABLE IF NOT EXISTS commenter_stats (user_id text PRIMARY KEY, comments integer NOT NULL);
      CREATE TABLE IF NOT EXISTS counters (name text PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO counters (name, value) VALUES ('comments', 0), ('reports', 0) ON CONFLICT DO NOTHING;
      -- a rebuild's name and photo changes with their log positions, until it settles (empty otherwise)
      ${REPLAY_PROFILES_TABLE};
      -- a rebuild's erasures (user id, content as AccountErased says), until it settles (empty otherwise)
      CREATE TABLE IF NOT EXISTS replay_erasures (user_id text NOT NULL, content text NOT NULL);
    `);
  },
  apply: applyBatch,
  replay: {
    stage,
    settle: [settle],
  },
};

async function applyBatch(trx: Knex.Transaction, events: readonly CommentsEvent[]) {
  // A batch is folded here and written in at most eight statements, whatever its size, in an
  // order that gives what the log's order gives:
  //   1. name and photo changes, on the rows that were there before the batch (the batch's own
  //      comments and reports carry the changes that came after them);
  //   2. the batch's comments (not under a post deleted before the batch);
  //   3. its reports (of comments there by then); 4. its edits (each comment as its latest);
  //   5. staff's hiding (each comment's latest); 6. its removals, 7. its post deletions (with their comments).
  // Something added and then removed or deleted in the batch is counted and then uncounted;
  // a report that raced a removal or deletion is resolved by it. The orders these steps cannot
  // give start a new segment: a comment added after its post's deletion in the batch (a race),
  // and one added after its id was reported or removed (which cannot come from the command side).
  let segment = newSegment();
  for (const event of events) {
    switch (event.type) {
      case 'CommentAdded': {
        const comment = event.data;
        // a comment that raced its post's deletion earlier in the segment: the deletion is written
        // first, so that the comment is not added (nor its author counted), as in a batch of its own
        if (segment.touched.has(comment.commentId) || segment.deletedPosts.has(comment.postId)) {
          await applySegment(trx, segment);
          segment = newSegment();
        }
        // the first of two adds of one id wins (ON CONFLICT DO NOTHING), in the batch as in the table
        if (!segment.added.has(comment.commentId)) segment.added.set(comment.commentId, { ...comment, createdPos: event.position.globalPosition.toString() });
        break;
      }
      case 'CommentReported': {
        const report = event.data;
        segment.touched.add(report.commentId);
        const key = `${report.commentId} ${report.reporterId}`;
        if (!segment.reports.has(key)) segment.reports.set(key, { ...report, reportedPos: event.position.globalPosition.toString() });
        break;
      }
      case 'CommentEdited': {
        const edit = event.data;
        segment.touched.add(edit.commentId);
        segment.edits.push(editRow(edit.commentId, edit, EDITED_FIELDS, event.position.globalPosition));
        break;
      }
      case 'CommentHidden':
      case 'CommentUnhidden': {
        const hidden = event.type === 'CommentHidden' ? event.data : null;
        segment.touched.add(event.data.commentId);
        segment.hidden.set(event.data.commentId, { id: event.data.commentId, hidden_reason: hidden?.reason ?? null, hidden_at: hidden?.hiddenAt ?? null });
        break;
      }
      case 'CommentRemoved': {
        const { commentId } = event.data;
        segment.touched.add(commentId);
        segment.removed.add(commentId);
        break;
      }
      case 'PostDeleted':
        segment.deletedPosts.add(event.data.postId);
        break;
      case 'ProfileUpdated': {
        // only the fields the update changed (a v1 event arrives upcast with both)
        const { userId, changes } = event.data;
        mergeProfileChange(segment.profileChanges, userId, changes);
        carryProfileChange(segment.added.values(), AUTHOR, userId, changes);
        carryProfileChange(segment.reports.values(), REPORTER, userId, changes);
        break;
      }
      case 'AccountErased': {
        // after everything before it; their comments themselves were removed by their own events if they chose so
        await applySegment(trx, segment);
        segment = newSegment();
        await erasePeople(trx, ONE_ERASURE, oneErasure(event.data));
        break;
      }
      default:
        event satisfies never;
    }
  }
  await applySegment(trx, segment);
}

/** The comments' revisions (see revisions.ts). */
const COMMENT_REVISIONS: Revisable = { table: 'comments', revisions: 'revisions', key: 'comment_id', fields: { text: 'text' } };
const EDITED_FIELDS = ['text'] as const satisfies readonly (keyof CommentEdited['data'])[];

interface Segment {
  added: Map<string, CommentAdded['data'] & { createdPos: string }>;
  reports: Map<string, CommentReported['data'] & { reportedPos: string }>;
  /** The edits, in log order (rows of `editColumns`). */
  edits: Record<string, unknown>[];
  removed: Set<string>;
  deletedPosts: Set<string>;
  /** Staff's latest hiding (or showing again) of each comment. */
  hidden: Map<string, { id: string; hidden_reason: string | null; hidden_at: string | null }>;
  /** Name and photo changes, merged per person. */
  profileChanges: Map<string, MergedProfileChange>;
  /** Comment ids reported, edited, hidden or removed in the segment. */
  touched: Set<string>;
}

function newSegment(): Segment {
  return {
    added: new Map(),
    reports: new Map(),
    edits: [],
    removed: new Set(),
    deletedPosts: new Set(),
    hidden: new Map(),
    profileChanges: new Map(),
    touched: new Set(),
  };
}

async function applySegment(trx: Knex.Transaction, segment: Segment) {
  const json = (rows: unknown[]) => JSON.stringify(rows);
  if (segment.profileChanges.size > 0) {
    const changes = [...segment.profileChanges.values()];
    const ids = changes.map((change) => change.userId);
    // comments and reports show their people's current name and photo (emails do not change)
    await trx.raw(
      `WITH changes AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x("userId" text, name text, "photoURL" text)),
       written AS (
         UPDATE comments c SET author_name = coalesce(x.name, c.author_name), author_photo = coalesce(x."photoURL", c.author_photo)
         FROM changes x WHERE c.author_id = x."userId" AND c.author_id = ANY (?::text[])
       )
       UPDATE reports r SET reporter_name = coalesce(x.name, r.reporter_name), reporter_photo = coalesce(x."photoURL", r.reporter_photo)
       FROM changes x WHERE r.reporter_id = x."userId" AND r.reporter_id = ANY (?::text[])`,
      // the ids again as an array: the planner then reads the rows through the indexes, not the whole tables
      [json(changes), ids, ids],
    );
  }
  if (segment.added.size > 0) {
    await insertComments(
      trx,
      `SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(
         "commentId" uuid, "postId" uuid, text text, "authorId" text, "authorName" text, "authorEmail" text, "authorPhoto" text, "createdAt" timestamptz, "createdPos" bigint)`,
      [json([...segment.added.values()])],
      { prepared: true },
    );
  }
  if (segment.reports.size > 0) {
    await insertReports(
      trx,
      `SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(
         "commentId" uuid, "reporterId" text, "reporterName" text, "reporterEmail" text, "reporterPhoto" text, feedback text, "reportedAt" timestamptz, "reportedPos" bigint)`,
      [json([...segment.reports.values()])],
    );
  }
  if (segment.edits.length > 0)
    await editComments(trx, `SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(${editColumns(COMMENT_REVISIONS)})`, [json(segment.edits)]);
  if (segment.hidden.size > 0)
    await hideComments(trx, 'SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, hidden_reason text, hidden_at timestamptz)', [
      json([...segment.hidden.values()]),
    ]);
  if (segment.removed.size > 0) await removeComments(trx, 'id = ANY (?::uuid[])', [[...segment.removed]]);
  if (segment.deletedPosts.size > 0) await deletePosts(trx, 'SELECT unnest(?::uuid[])', [[...segment.deletedPosts]]);
}

/**
 * Erased members (rows of user_id and content that `erasures` selects) are 'Deleted user' on their
 * comments and reports, with no email or photo, and their comments' text is erased where it went
 * (their revisions too)
 * too: what their events read as from now on, so that a replay writes the same rows. (Their
 * comments themselves were removed by their own events then; this reaches what those missed.)
 */
async function erasePeople(trx: Knex.Transaction, erasures: string, bindings: readonly Knex.RawBinding[]) {
  const { name, email, photo, text } = ERASED_VALUES;
  await trx.raw(
    `WITH erased AS (SELECT x.user_id, x.content = 'erased' AS content FROM (${erasures}) x),
     written AS (
       UPDATE comments c SET author_name = ?, author_email = ?, author_photo = ?, text = CASE WHEN e.content THEN ? ELSE c.text END
       FROM erased e WHERE c.author_id = e.user_id
       RETURNING c.id, e.content
     ),
     revised AS (UPDATE revisions r SET text = ? FROM written w WHERE r.comment_id = w.id AND w.content)
     UPDATE reports SET reporter_name = ?, reporter_email = ?, reporter_photo = ? WHERE reporter_id IN (SELECT user_id FROM erased)`,
    [...bindings, name, email, photo, text, text, name, email, photo],
  );
}

/**
 * Inserts the comments `input` selects (columns as CommentAdded's data, and "createdPos"), not under
 * a deleted post, and counts them. `prepared`: a live batch's statement, the same text every time
 * (rows from a jsonb parameter), prepared once per connection; a staged replay's holds its range.
 */
async function insertComments(trx: Knex.Transaction, input: string, bindings: readonly Knex.RawBinding[], options: { prepared?: boolean } = {}) {
  const run = options.prepared ? preparedInBuild : (t: Knex.Transaction, sql: string, values: readonly Knex.RawBinding[]) => t.raw(sql, values);
  await run(
    trx,
    `WITH input AS (${input}),
     inserted AS (
       INSERT INTO comments (id, post_id, text, author_id, author_name, author_email, author_photo, created_at, created_pos)
       SELECT "commentId", "postId", text, "authorId", "authorName", "authorEmail", "authorPhoto", "createdAt", "createdPos" FROM input i
       WHERE NOT EXISTS (SELECT 1 FROM deleted_posts d WHERE d.post_id = i."postId")
       ON CONFLICT (id) DO NOTHING
       RETURNING author_id
     ),
     totals AS (UPDATE counters SET value = value + (SELECT count(*) FROM inserted) WHERE name = 'comments')
     INSERT INTO commenter_stats (user_id, comments) SELECT author_id, count(*) FROM inserted GROUP BY author_id
     ON CONFLICT (user_id) DO UPDATE SET comments = commenter_stats.comments + excluded.comments`,
    bindings,
  );
}

/**
 * Inserts the reports `input` selects (columns as CommentReported's data, and
 * "reportedPos") of comments that are there, and counts them. A report of a
 * comment that is gone (removed, or its post deleted) is resolved already.
 */
async function insertReports(trx: Knex.Transaction, input: string, bindings: readonly Knex.RawBinding[]) {
  await trx.raw(
    `WITH input AS (${input}),
     inserted AS (
       INSERT INTO reports (id, comment_id, reporter_id, reporter_name, reporter_email, reporter_photo, feedback, reported_at, reported_pos)
       SELECT md5(i."commentId"::text || ' ' || i."reporterId")::uuid, i."commentId", i."reporterId", i."reporterName", i."reporterEmail",
              i."reporterPhoto", i.feedback, i."reportedAt", i."reportedPos"
       FROM input i WHERE EXISTS (SELECT 1 FROM comments c WHERE c.id = i."commentId")
       ON CONFLICT DO NOTHING
       RETURNING comment_id
     ),
     per_comment AS (
       UPDATE comments c SET report_count = c.report_count + n.reports
       FROM (SELECT comment_id, count(*)::integer AS reports FROM inserted GROUP BY comment_id) n WHERE c.id = n.comment_id
     )
     UPDATE counters SET value = value + (SELECT count(*) FROM inserted) WHERE name = 'reports'`,
    bindings,
  );
}

/** Remembers the posts `ids` selects as deleted and takes their comments away. */
async function deletePosts(trx: Knex.Transaction, ids: string, bindings: readonly Knex.RawBinding[]) {
  await rememberDeletedPosts(trx, ids, bindings);
  await removeComments(trx, `post_id IN (${ids})`, bindings);
}

/** Remembers the posts `ids` selects as deleted: no comment is added under them any more. */
async function rememberDeletedPosts(trx: Knex.Transaction, ids: string, bindings: readonly Knex.RawBinding[]) {
  await trx.raw(`INSERT INTO deleted_posts (post_id) ${ids} ON CONFLICT DO NOTHING`, bindings);
}

/**
 * A range of the log, staged (see `Projection.replay`), in the order the
 * ordinary replay of a batch takes: the range's comments (each with its
 * names as the event has them; they take later changes when the replay
 * settles) not under a post deleted before them, its reports of comments
 * there, its edits, staff's hiding (each comment's latest), its removals, then its post deletions. The first of two adds or
 * reports of one id wins. A deleted post's comments from before its deletion
 * stay until the replay settles; what a later range reports or removes of
 * them is counted, then uncounted with them, so the tables come out the same.
 */
async function stage(trx: Knex.Transaction, log: Knex.Raw) {
  await trx.raw('DROP INDEX IF EXISTS comments_of_post, comments_author');
  await stageProfileChanges(trx, log);
  await insertComments(
    trx,
    `SELECT DISTINCT ON ((data->>'commentId')::uuid)
            (data->>'commentId')::uuid AS "commentId", (data->>'postId')::uuid AS "postId", data->>'text' AS text,
            data->>'authorId' AS "authorId", data->>'authorName' AS "authorName", data->>'authorEmail' AS "authorEmail",
            data->>'authorPhoto' AS "authorPhoto", (data->>'createdAt')::timestamptz AS "createdAt", pos AS "createdPos"
     FROM ? e
     WHERE type = 'CommentAdded'
       AND NOT EXISTS (SELECT 1 FROM ? d WHERE d.type = 'PostDeleted' AND d.data->>'postId' = e.data->>'postId' AND d.pos < e.pos)
     ORDER BY (data->>'commentId')::uuid, pos`,
    [log, log],
  );
  await insertReports(
    trx,
    `SELECT DISTINCT ON (data->>'commentId', data->>'reporterId')
            (data->>'commentId')::uuid AS "commentId", data->>'reporterId' AS "reporterId", data->>'reporterName' AS "reporterName",
            data->>'reporterEmail' AS "reporterEmail", data->>'reporterPhoto' AS "reporterPhoto", data->>'feedback' AS feedback,
            (data->>'reportedAt')::timestamptz AS "reportedAt", pos AS "reportedPos"
     FROM ? e WHERE type = 'CommentReported' ORDER BY data->>'commentId', data->>'reporterId', pos`,
    [log],
  );
  await editComments(trx, editsInLog(COMMENT_REVISIONS, 'CommentEdited', 'commentId'), [log]);
  await hideComments(
    trx,
    `SELECT DISTINCT ON ((data->>'commentId')::uuid) (data->>'commentId')::uuid AS id,
            CASE WHEN type = 'CommentHidden' THEN data->>'reason' END AS hidden_reason,
            CASE WHEN type = 'CommentHidden' THEN (data->>'hiddenAt')::timestamptz END AS hidden_at
     FROM ? e WHERE type IN ('CommentHidden', 'CommentUnhidden') ORDER BY (data->>'commentId')::uuid, pos DESC`,
    [log],
  );
  await removeComments(trx, `id IN (SELECT (data->>'commentId')::uuid FROM ? e WHERE type = 'CommentRemoved')`, [log]);
  // the deleted posts' comments already there leave when the replay settles: one pass over the
  // comments then, rather than one per range (no index by post while staging)
  await rememberDeletedPosts(trx, `SELECT (data->>'postId')::uuid FROM ? e WHERE type = 'PostDeleted'`, [log]);
  // the range's erasures reach what is staged when the replay settles (a build staged before them
  // holds what their events said then): one pass over the comments then, rather than one per range
  await trx.raw(`INSERT INTO replay_erasures (user_id, content) ${ERASED_IN_LOG}`, [log]);
}

/** Applies the edits `input` selects (columns as `editColumns(COMMENT_REVISIONS)`) to the comments there: each reads as its latest; the revisions are written. */
async function editComments(trx: Knex.Transaction, input: string, bindings: readonly Knex.RawBinding[]) {
  await trx.raw(
    `WITH input AS (${input}),
     ${revisionsWritten(COMMENT_REVISIONS)}
     UPDATE comments c SET ${editedRow(COMMENT_REVISIONS)} FROM latest l WHERE c.id = l.id`,
    bindings,
  );
}

/** Staff's hiding of the comments there (`input`: id, hidden_reason, hidden_at; nulls: shown again). */
async function hideComments(trx: Knex.Transaction, input: string, bindings: readonly Knex.RawBinding[]) {
  await trx.raw(
    `WITH input AS (${input}) UPDATE comments c SET hidden_reason = i.hidden_reason, hidden_at = i.hidden_at FROM input i WHERE c.id = i.id`,
    bindings,
  );
}

/** Takes comments out of the lists and counts (with their revisions), resolving their open reports. */
async function removeComments(trx: Knex.Transaction, where: string, bindings: readonly Knex.RawBinding[]) {
  await trx.raw(
    `WITH gone AS (DELETE FROM comments WHERE ${where} RETURNING id, author_id),
     resolved AS (DELETE FROM reports r USING gone g WHERE r.comment_id = g.id RETURNING 1),
     revised AS (${revisionsGone(COMMENT_REVISIONS, 'gone')}),
     authors AS (
       UPDATE commenter_stats s SET comments = s.comments - a.n
       FROM (SELECT author_id, count(*)::integer AS n FROM gone GROUP BY author_id) a WHERE s.user_id = a.author_id
     )
     UPDATE counters SET value = value - CASE name WHEN 'comments' THEN (SELECT count(*) FROM gone) ELSE (SELECT count(*) FROM resolved) END
     WHERE name IN ('comments', 'reports')`,
    bindings,
  );
}

/**
 * Completes a staged replay: the deleted posts' comments leave, a comment or
 * report written before its person's latest name or photo change takes it,
 * the lookups are built again, and the erased members' comments and reports
 * read as erased (over any name the settle gave them). The facts are then cleared.
 */
async function settle(trx: Knex.Transaction) {
  // every deleted post's (those of an earlier settle are gone already): one pass over the comments
  await removeComments(trx, 'post_id IN (SELECT post_id FROM deleted_posts)', []);
  await trx.raw(`
    WITH latest AS (${LATEST_PROFILE_CHANGES}),
    written AS (
      UPDATE comments c SET
        author_name = CASE WHEN c.created_pos < x.name_pos THEN x.name ELSE c.author_name END,
        author_photo = CASE WHEN c.created_pos < x.photo_pos THEN x.photo_url ELSE c.author_photo END
      FROM latest x WHERE c.author_id = x.user_id AND (c.created_pos < x.name_pos OR c.created_pos < x.photo_pos)
    )
    UPDATE reports r SET
      reporter_name = CASE WHEN r.reported_pos < x.name_pos THEN x.name ELSE r.reporter_name END,
      reporter_photo = CASE WHEN r.reported_pos < x.photo_pos THEN x.photo_url ELSE r.reporter_photo END
    FROM latest x WHERE r.reporter_id = x.user_id AND (r.reported_pos < x.name_pos OR r.reported_pos < x.photo_pos)`);
  // after the names: their rewrites then have fewer indexes to keep
  await trx.raw(LOOKUPS);
  // after the names, which may have settled an erased member's old name onto their rows (and
  // after the lookups: it reaches the erased members' rows through the author index)
  await erasePeople(trx, 'SELECT user_id, content FROM replay_erasures', []);
  await trx.raw('TRUNCATE replay_profiles, replay_erasures');
}
