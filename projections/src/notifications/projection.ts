import type { AccountErased, UserWarned, WarningsRead } from '@forum/contracts';
import type { RecordedEvent } from '@forum/eventstore';
import type { Knex } from '@forum/platform';
import type { Projection } from '../runner/projection.ts';

/**
 * Each user's notifications (the moderators' warnings) and whether they were
 * read. A user has few of them, so the unread count is read from the user's
 * rows through their index rather than kept as a counter. An erased user's
 * notifications are deleted.
 *
 * A warning about a comment keeps what it names besides the comment: its post
 * and the quote of it; the moderators' queue asks by comment whether it was
 * warned about.
 */
export const notificationsProjection: Projection = {
  name: 'notifications',
  // what each version changed: docs/projections-versions.md
  version: 2,
  types: ['UserWarned', 'WarningsRead', 'AccountErased'],
  exposes: { notifications: 'notifications' },
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
    `);
  },
  async apply(trx, events) {
    // Two statements a segment: reads of warnings that were there before it, then its warnings,
    // read already when a later WarningsRead of it names them (log order). An erasure ends a
    // segment: it deletes what came before it.
    const warnings = new Map<string, Warning>();
    const reads: { userId: string; warningIds: string[] }[] = [];
    for (const event of events) {
      if (event.type === 'AccountErased') {
        await writeNotifications(trx, warnings, reads);
        warnings.clear();
        reads.length = 0;
        await trx.raw('DELETE FROM notifications WHERE user_id = ?', [(event as RecordedEvent<'AccountErased', AccountErased['data']>).data.userId]);
      } else if (event.type === 'UserWarned') {
        const w = (event as RecordedEvent<'UserWarned', UserWarned['data']>).data;
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
      } else if (event.type === 'WarningsRead') {
        const read = (event as RecordedEvent<'WarningsRead', WarningsRead['data']>).data;
        reads.push({ userId: read.userId, warningIds: read.warningIds });
        for (const id of read.warningIds) {
          const warning = warnings.get(id);
          if (warning && warning.userId === read.userId) warning.read = true;
        }
      }
    }
    await writeNotifications(trx, warnings, reads);
  },
};

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
