import type { UserWarned, WarningsRead } from '@forum/contracts';
import type { RecordedEvent } from '@forum/command-service/eventstore';
import { byEventType, type Projection } from '../runner/projection.ts';

/**
 * Each user's notifications (the moderators' warnings) and whether they were
 * read. A user has few of them, so the unread count is read from the user's
 * rows through their index rather than kept as a counter.
 */
export const notificationsProjection: Projection = {
  name: 'notifications',
  version: 1,
  exposes: { notifications: 'notifications' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS notifications (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        kind text NOT NULL,
        reason text NOT NULL,
        comment_id uuid,
        created_at timestamptz NOT NULL,
        read boolean NOT NULL DEFAULT false
      );
      CREATE INDEX IF NOT EXISTS notifications_of_user ON notifications (user_id, created_at DESC, id DESC);
    `);
  },
  apply: byEventType({
    async UserWarned(trx, event: RecordedEvent) {
      const warning = (event as RecordedEvent<'UserWarned', UserWarned['data']>).data;
      await trx.raw(
        `INSERT INTO notifications (id, user_id, kind, reason, comment_id, created_at) VALUES (?, ?, 'warning', ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
        [warning.warningId, warning.userId, warning.reason, warning.commentId ?? null, warning.warnedAt],
      );
    },
    async WarningsRead(trx, event: RecordedEvent) {
      const read = (event as RecordedEvent<'WarningsRead', WarningsRead['data']>).data;
      await trx.raw('UPDATE notifications SET read = true WHERE user_id = ? AND id = ANY (?::uuid[])', [read.userId, read.warningIds]);
    },
  }),
};
