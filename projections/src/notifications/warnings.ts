import type { AnnouncementPublished } from '@forum/contracts';
import type { Knex } from '@forum/platform';

/**
 * The moderators' warnings and the announcements read marks of the notifications read model
 * (see projection.ts): written a segment at a time, set-wise.
 */

export type Mark = { userId: string; announcementId: string; upTo: string };

/** A segment's newest mark per member, where it is newer than the one kept (the mark only moves forward). */
export async function writeMarks(trx: Knex.Transaction, marks: ReadonlyMap<string, Mark>) {
  if (marks.size === 0) return;
  await trx.raw(
    `INSERT INTO announcements_read (user_id, announcement_id, up_to)
     SELECT "userId", "announcementId", "upTo" FROM jsonb_to_recordset(?::jsonb) AS x("userId" text, "announcementId" uuid, "upTo" timestamptz)
     ON CONFLICT (user_id) DO UPDATE SET announcement_id = EXCLUDED.announcement_id, up_to = EXCLUDED.up_to
     WHERE announcements_read.up_to < EXCLUDED.up_to`,
    [JSON.stringify([...marks.values()])],
  );
}

/**
 * The announcement is read by its author where their mark covered every announcement before it
 * (there was none, or the newest was at or before their mark), and it is the newest from now on.
 * The statement reads both tables as they were before it.
 */
export async function readByAuthor(trx: Knex.Transaction, { announcementId, authorId, publishedAt }: AnnouncementPublished['data']) {
  await trx.raw(
    `WITH before AS (SELECT (SELECT published_at FROM announcements_newest) AS newest, (SELECT up_to FROM announcements_read WHERE user_id = :authorId) AS mark),
     newest AS (
       INSERT INTO announcements_newest (published_at) VALUES (:publishedAt)
       ON CONFLICT (only_row) DO UPDATE SET published_at = greatest(announcements_newest.published_at, EXCLUDED.published_at)
     )
     INSERT INTO announcements_read (user_id, announcement_id, up_to)
     SELECT :authorId, :announcementId, :publishedAt FROM before WHERE before.newest IS NULL OR before.newest <= before.mark
     ON CONFLICT (user_id) DO UPDATE SET announcement_id = EXCLUDED.announcement_id, up_to = EXCLUDED.up_to
     WHERE announcements_read.up_to < EXCLUDED.up_to`,
    { authorId, announcementId, publishedAt },
  );
}

export type Warning = {
  warningId: string;
  userId: string;
  reason: string;
  commentId: string | null;
  postId: string | null;
  commentQuote: string | null;
  warnedAt: string;
  read: boolean;
  /** The global log position of its `UserWarned`. */
  position: string;
};

/** A segment's reads of earlier warnings, then its warnings. */
export async function writeWarnings(trx: Knex.Transaction, warnings: ReadonlyMap<string, Warning>, reads: readonly { userId: string; warningIds: string[] }[]) {
  if (reads.length > 0) {
    await trx.raw(
      `UPDATE notifications n SET read = true
       FROM (SELECT DISTINCT r."userId", unnest(r."warningIds")::uuid AS id FROM jsonb_to_recordset(?::jsonb) AS r("userId" text, "warningIds" text[])) r
       WHERE n.id = r.id AND n.user_id = r."userId" AND n.kind = 'warning'`,
      [JSON.stringify(reads)],
    );
  }
  if (warnings.size > 0) {
    await trx.raw(
      `INSERT INTO notifications (id, user_id, kind, reason, comment_id, post_id, comment_quote, created_at, updated_at, read, position)
       SELECT "warningId", "userId", 'warning', reason, "commentId", "postId", "commentQuote", "warnedAt", "warnedAt", read, position
       FROM jsonb_to_recordset(?::jsonb) AS x(
         "warningId" uuid, "userId" text, reason text, "commentId" uuid, "postId" uuid, "commentQuote" text, "warnedAt" timestamptz, read boolean, position bigint)
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify([...warnings.values()])],
    );
  }
}
