import type { AnnouncementPublished } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { defineProjection } from '../runner/projection.ts';

/**
 * Each user's notifications (the moderators' warnings) and whether they were
 * read. A user has few of them, so the unread count is read from the user's
 * rows through their index rather than kept as a counter. An erased user's
 * notifications are deleted.
 *
 * A warning about a comment keeps what it names besides the comment: its post
 * and the quote of it; the moderators' queue asks by comment whether it was
 * warned about.
 *
 * Each member's announcements read mark (one row, the newest announcement they
 * marked read and its publication time), which only moves forward; it goes
 * with the member's erasure too. An announcement is read by its author: their
 * mark moves to it when it already covered every announcement before it (the
 * newest publication time is kept for that); otherwise it stays, since a mark
 * reads everything up to it and the earlier ones are still new to them.
 */
export const notificationsProjection = defineProjection({
  name: 'notifications',
  // what each version changed: docs/projections-versions.md
  version: 4,
  types: ['UserWarned', 'WarningsRead', 'AnnouncementsRead', 'AnnouncementPublished', 'AccountErased'],
  // an announcement's author counts by their id: their name and photo are not read
  opens: ['UserWarned'],
  exposes: { notifications: 'notifications', announcements_read: 'announcements_read' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS notifications (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        kind text NOT NULL,
        reason text NOT NULL,
        comment_id uuid,
        post_id uuid,
        comment_quote text,
        created_at timestamptz NOT NULL,
        read boolean NOT NULL DEFAULT false
      );
      CREATE INDEX IF NOT EXISTS notifications_of_user ON notifications (user_id, created_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS notifications_of_comment ON notifications (comment_id) WHERE comment_id IS NOT NULL;
      CREATE TABLE IF NOT EXISTS announcements_read (
        user_id text PRIMARY KEY,
        announcement_id uuid NOT NULL,
        up_to timestamptz NOT NULL
      );
      CREATE TABLE IF NOT EXISTS announcements_newest (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        published_at timestamptz NOT NULL
      );
    `);
  },
  async apply(trx, events) {
    // Two statements a segment: reads of warnings that were there before it, then its warnings,
    // read already when a later WarningsRead of it names them (log order). An erasure ends a
    // segment: it deletes what came before it.
    const warnings = new Map<string, Warning>();
    const reads: { userId: string; warningIds: string[] }[] = [];
    const marks = new Map<string, Mark>();
    for (const event of events) {
      if (event.type === 'AccountErased') {
        await writeNotifications(trx, warnings, reads);
        await writeMarks(trx, marks);
        warnings.clear();
        reads.length = 0;
        marks.clear();
        const { userId } = event.data;
        await trx.raw('DELETE FROM notifications WHERE user_id = ?', [userId]);
        await trx.raw('DELETE FROM announcements_read WHERE user_id = ?', [userId]);
      } else if (event.type === 'AnnouncementsRead') {
        const { userId, announcementId, upTo } = event.data;
        const kept = marks.get(userId);
        if (!kept || Date.parse(upTo) > Date.parse(kept.upTo)) marks.set(userId, { userId, announcementId, upTo });
      } else if (event.type === 'AnnouncementPublished') {
        await writeMarks(trx, marks);
        marks.clear();
        await readByAuthor(trx, event.data);
      } else if (event.type === 'UserWarned') {
        const w = event.data;
        if (!warnings.has(w.warningId)) {
          warnings.set(w.warningId, {
            warningId: w.warningId,
            userId: w.userId,
            reason: w.reason,
            commentId: w.commentId ?? null,
            postId: w.postId ?? null,
            commentQuote: w.commentQuote ?? null,
            warnedAt: w.warnedAt,
            read: false,
          });
        }
      } else {
        const read = event.data;
        reads.push({ userId: read.userId, warningIds: read.warningIds });
        for (const id of read.warningIds) {
          const warning = warnings.get(id);
          if (warning && warning.userId === read.userId) warning.read = true;
        }
      }
    }
    await writeNotifications(trx, warnings, reads);
    await writeMarks(trx, marks);
  },
});

type Mark = { userId: string; announcementId: string; upTo: string };

/** A segment's newest mark per member, where it is newer than the one kept (the mark only moves forward). */
async function writeMarks(trx: Knex.Transaction, marks: ReadonlyMap<string, Mark>) {
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
async function readByAuthor(trx: Knex.Transaction, { announcementId, authorId, publishedAt }: AnnouncementPublished['data']) {
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

type Warning = {
  warningId: string;
  userId: string;
  reason: string;
  commentId: string | null;
  postId: string | null;
  commentQuote: string | null;
  warnedAt: string;
  read: boolean;
};

/** A segment's reads of earlier warnings, then its warnings. */
async function writeNotifications(trx: Knex.Transaction, warnings: ReadonlyMap<string, Warning>, reads: readonly { userId: string; warningIds: string[] }[]) {
  if (reads.length > 0) {
    await trx.raw(
      `UPDATE notifications n SET read = true
       FROM (SELECT DISTINCT r."userId", unnest(r."warningIds")::uuid AS id FROM jsonb_to_recordset(?::jsonb) AS r("userId" text, "warningIds" text[])) r
       WHERE n.id = r.id AND n.user_id = r."userId"`,
      [JSON.stringify(reads)],
    );
  }
  if (warnings.size > 0) {
    await trx.raw(
      `INSERT INTO notifications (id, user_id, kind, reason, comment_id, post_id, comment_quote, created_at, read)
       SELECT "warningId", "userId", 'warning', reason, "commentId", "postId", "commentQuote", "warnedAt", read
       FROM jsonb_to_recordset(?::jsonb) AS x(
         "warningId" uuid, "userId" text, reason text, "commentId" uuid, "postId" uuid, "commentQuote" text, "warnedAt" timestamptz, read boolean)
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify([...warnings.values()])],
    );
  }
}
