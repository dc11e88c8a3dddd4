import type { CommentAdded, CommentRemoved, CommentReported, PostDeleted, ProfileUpdated } from '@forum/contracts';
import type { RecordedEvent } from '@forum/command-service/eventstore';
import type { Knex } from '@forum/platform';
import type { Projection } from '../runner/projection.ts';

/**
 * Comments (the post page's list, oldest first), their open reports (the admin's
 * reported list) and the counts around them: comments in total and per author,
 * open reports in total and per comment.
 *
 * A comment leaves the lists when an admin removes it (its reports are resolved
 * with it) or when its post is deleted. Deleted posts are remembered, so a
 * comment that raced its post's deletion does not come back.
 */
export const commentsProjection: Projection = {
  name: 'comments',
  version: 1,
  exposes: { comments: 'comments', comment_reports: 'reports', comment_counters: 'counters', commenter_stats: 'commenter_stats' },
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
        report_count integer NOT NULL DEFAULT 0
      );
      CREATE INDEX IF NOT EXISTS comments_of_post ON comments (post_id, created_at, id);
      CREATE INDEX IF NOT EXISTS comments_author ON comments (author_id);
      CREATE TABLE IF NOT EXISTS reports (
        id uuid NOT NULL UNIQUE,
        comment_id uuid NOT NULL,
        reporter_id text NOT NULL,
        reporter_name text NOT NULL,
        reporter_email text NOT NULL,
        reporter_photo text NOT NULL,
        feedback text NOT NULL,
        reported_at timestamptz NOT NULL,
        PRIMARY KEY (comment_id, reporter_id)
      );
      CREATE INDEX IF NOT EXISTS reports_newest ON reports (reported_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS reports_reporter ON reports (reporter_id);
      CREATE TABLE IF NOT EXISTS deleted_posts (post_id uuid PRIMARY KEY);
      CREATE TABLE IF NOT EXISTS commenter_stats (user_id text PRIMARY KEY, comments integer NOT NULL);
      CREATE TABLE IF NOT EXISTS counters (name text PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO counters (name, value) VALUES ('comments', 0), ('reports', 0) ON CONFLICT DO NOTHING;
    `);
  },
  async apply(trx, events) {
    // Consecutive events of one type are applied by one set-based statement.
    let run: RecordedEvent[] = [];
    const flush = async () => {
      if (run.length === 0) return;
      const batch = run;
      run = [];
      await applyRun(trx, batch);
    };
    for (const event of events) {
      if (!HANDLED.has(event.type)) continue;
      if (run.length > 0 && run[0]!.type !== event.type) await flush();
      run.push(event);
    }
    await flush();
  },
};

const HANDLED = new Set(['CommentAdded', 'CommentRemoved', 'CommentReported', 'PostDeleted', 'ProfileUpdated']);

async function applyRun(trx: Knex.Transaction, run: readonly RecordedEvent[]) {
  const json = (rows: unknown[]) => JSON.stringify(rows);
  switch (run[0]!.type) {
    case 'CommentAdded': {
      const rows = run.map((event) => (event as RecordedEvent<'CommentAdded', CommentAdded['data']>).data);
      await trx.raw(
        `WITH input AS (
           SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(
             "commentId" uuid, "postId" uuid, text text, "authorId" text, "authorName" text, "authorEmail" text, "authorPhoto" text, "createdAt" timestamptz)
         ),
         inserted AS (
           INSERT INTO comments (id, post_id, text, author_id, author_name, author_email, author_photo, created_at)
           SELECT "commentId", "postId", text, "authorId", "authorName", "authorEmail", "authorPhoto", "createdAt" FROM input i
           WHERE NOT EXISTS (SELECT 1 FROM deleted_posts d WHERE d.post_id = i."postId")
           ON CONFLICT (id) DO NOTHING
           RETURNING author_id
         ),
         totals AS (UPDATE counters SET value = value + (SELECT count(*) FROM inserted) WHERE name = 'comments')
         INSERT INTO commenter_stats (user_id, comments) SELECT author_id, count(*) FROM inserted GROUP BY author_id
         ON CONFLICT (user_id) DO UPDATE SET comments = commenter_stats.comments + excluded.comments`,
        [json(rows)],
      );
      return;
    }
    case 'CommentRemoved': {
      const ids = run.map((event) => (event as RecordedEvent<'CommentRemoved', CommentRemoved['data']>).data.commentId);
      await removeComments(trx, 'id = ANY (?::uuid[])', [ids]);
      return;
    }
    case 'PostDeleted': {
      const ids = run.map((event) => (event as RecordedEvent<'PostDeleted', PostDeleted['data']>).data.postId);
      await trx.raw('INSERT INTO deleted_posts (post_id) SELECT unnest(?::uuid[]) ON CONFLICT DO NOTHING', [ids]);
      await removeComments(trx, 'post_id = ANY (?::uuid[])', [ids]);
      return;
    }
    case 'CommentReported': {
      const rows = run.map((event) => (event as RecordedEvent<'CommentReported', CommentReported['data']>).data);
      // a report of a comment that is gone (removed, or its post deleted, meanwhile) is resolved already
      await trx.raw(
        `WITH input AS (
           SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(
             "commentId" uuid, "reporterId" text, "reporterName" text, "reporterEmail" text, "reporterPhoto" text, feedback text, "reportedAt" timestamptz)
         ),
         inserted AS (
           INSERT INTO reports (id, comment_id, reporter_id, reporter_name, reporter_email, reporter_photo, feedback, reported_at)
           SELECT md5(i."commentId"::text || ' ' || i."reporterId")::uuid, i."commentId", i."reporterId", i."reporterName", i."reporterEmail",
                  i."reporterPhoto", i.feedback, i."reportedAt"
           FROM input i WHERE EXISTS (SELECT 1 FROM comments c WHERE c.id = i."commentId")
           ON CONFLICT DO NOTHING
           RETURNING comment_id
         ),
         per_comment AS (
           UPDATE comments c SET report_count = c.report_count + n.reports
           FROM (SELECT comment_id, count(*)::integer AS reports FROM inserted GROUP BY comment_id) n WHERE c.id = n.comment_id
         )
         UPDATE counters SET value = value + (SELECT count(*) FROM inserted) WHERE name = 'reports'`,
        [json(rows)],
      );
      return;
    }
    case 'ProfileUpdated': {
      // comments and reports show their people's current name and photo (emails do not change)
      for (const event of run) {
        // only the fields the update changed
        const { userId, changes } = (event as RecordedEvent<'ProfileUpdated', ProfileUpdated['data']>).data;
        const name = changes.name ?? null;
        const photo = changes.photoURL ?? null;
        await trx.raw(
          `WITH written AS (UPDATE comments SET author_name = coalesce(?, author_name), author_photo = coalesce(?, author_photo) WHERE author_id = ?)
           UPDATE reports SET reporter_name = coalesce(?, reporter_name), reporter_photo = coalesce(?, reporter_photo) WHERE reporter_id = ?`,
          [name, photo, userId, name, photo, userId],
        );
      }
      return;
    }
    default:
      throw new Error(`comments projection: no handler for ${run[0]!.type}`);
  }
}

/** Takes comments out of the lists and counts, resolving their open reports. */
async function removeComments(trx: Knex.Transaction, where: string, bindings: readonly Knex.RawBinding[]) {
  await trx.raw(
    `WITH gone AS (DELETE FROM comments WHERE ${where} RETURNING id, author_id),
     resolved AS (DELETE FROM reports r USING gone g WHERE r.comment_id = g.id RETURNING 1),
     authors AS (
       UPDATE commenter_stats s SET comments = s.comments - a.n
       FROM (SELECT author_id, count(*)::integer AS n FROM gone GROUP BY author_id) a WHERE s.user_id = a.author_id
     )
     UPDATE counters SET value = value - CASE name WHEN 'comments' THEN (SELECT count(*) FROM gone) ELSE (SELECT count(*) FROM resolved) END
     WHERE name IN ('comments', 'reports')`,
    bindings,
  );
}
