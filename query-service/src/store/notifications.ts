import { NOTIFICATION_PAGE_SIZE, SUMMARY_SOURCE_LENGTH, TAG_LIST_MAX } from '@forum/contracts';
import { prepared, type Knex } from '@forum/platform';

/**
 * A notification as the centre reads it: the read model's row (notifications projection) with what
 * it names joined as it is now (the post's title and opening, the comment's opening, the actor's name,
 * handle and photo), so that an erasure, an edit, a removal or a deletion reaches it. A join that finds
 * nothing reads null: the post or comment is gone, the actor erased.
 */
export interface NotificationRow {
  id: string;
  kind: 'warning' | 'moderation' | 'reply' | 'followed-post' | 'followed-tag' | 'mention';
  /** A warning's, or the reason staff gave (moderation). */
  reason: string | null;
  /** What staff did, and a suspension's end (moderation). */
  action: string | null;
  until: Date | null;
  comment_quote: string | null;
  comment_id: string | null;
  post_id: string | null;
  actor_id: string | null;
  tag: string | null;
  count: number;
  updated_at: Date;
  read: boolean;
  /** The post's title while the post is there. */
  post_title: string | null;
  post_opening: string | null;
  /** The comment's opening while the comment is there. */
  comment_opening: string | null;
  /** The actor's, while they are not erased. */
  actor_known: boolean;
  actor_name: string | null;
  actor_handle: string | null;
  actor_photo: string | null;
}

/** The notification centre's reads, and a member's follows. */
export function createNotificationsStore(db: Knex) {
  return {
    /**
     * A page of a member's notifications of every kind (NOTIFICATION_PAGE_SIZE), newest first by their
     * last change, only the unread ones when `unreadOnly`; how many the query pages over, and how many
     * of theirs are unread. Kinds the member turned off are not shown nor counted.
     */
    async page(userId: string, page: number, unreadOnly: boolean): Promise<{ rows: NotificationRow[]; total: number; unread: number }> {
      const [{ rows }, counts] = await Promise.all([
        db.raw<{ rows: NotificationRow[] }>(
          `SELECT n.id, n.kind, n.reason, n.action, n.until, n.comment_quote, n.comment_id, n.post_id, n.actor_id, n.tag, n.count, n.updated_at, n.read,
                  p.title AS post_title, left(p.summary, :opening) AS post_opening, left(c.text, :opening) AS comment_opening,
                  u.id IS NOT NULL AS actor_known, u.name AS actor_name, u.handle AS actor_handle, u.photo_url AS actor_photo
           FROM (
             SELECT * FROM read.notifications WHERE user_id = :userId AND (NOT :unreadOnly OR NOT read) AND kind NOT IN (SELECT kind FROM read.notification_preferences WHERE user_id = :userId AND delivery = 'off')
             ORDER BY updated_at DESC, id DESC LIMIT :limit OFFSET :offset
           ) n
           LEFT JOIN read.posts p ON p.id = n.post_id
           LEFT JOIN read.comments c ON c.id = n.comment_id
           LEFT JOIN read.users u ON u.id = n.actor_id
           ORDER BY n.updated_at DESC, n.id DESC`,
          { userId, unreadOnly, limit: NOTIFICATION_PAGE_SIZE, offset: (page - 1) * NOTIFICATION_PAGE_SIZE, opening: SUMMARY_SOURCE_LENGTH },
        ),
        prepared<{ rows: { total: number; unread: number }[] }>(
          db,
          `SELECT count(*)::integer AS total, (count(*) FILTER (WHERE NOT read))::integer AS unread FROM read.notifications
           WHERE user_id = ? AND kind NOT IN (SELECT kind FROM read.notification_preferences WHERE user_id = ? AND delivery = 'off')`,
          [userId, userId],
        ),
      ]);
      const { total, unread } = counts.rows[0]!;
      return { rows, total: unreadOnly ? unread : total, unread };
    },

    /** Which of `members` have notifications last made or moved by the events at `positions` (see the projection's `position`). */
    async reachedBy(positions: readonly bigint[], members: readonly string[]): Promise<string[]> {
      const { rows }: { rows: { user_id: string }[] } = await prepared(
        db,
        'SELECT DISTINCT user_id FROM read.notifications WHERE position = ANY(?::bigint[]) AND user_id = ANY(?::text[])',
        [positions.map(String), [...members]],
      );
      return rows.map((row) => row.user_id);
    },

    /** Whether the member follows the post (null: no such post). */
    async followsPost(userId: string, postId: string): Promise<boolean | null> {
      const { rows }: { rows: { following: boolean | null }[] } = await prepared(
        db,
        `SELECT f.following FROM read.posts p LEFT JOIN read.post_followers f ON f.post_id = p.id AND f.user_id = ? WHERE p.id = ?`,
        [userId, postId],
      );
      return rows.length === 0 ? null : rows[0]!.following === true;
    },

    /** The tags the member follows, by name (at most TAG_LIST_MAX, as every list of tags). */
    async followedTags(userId: string): Promise<string[]> {
      const { rows }: { rows: { tag: string }[] } = await prepared(db, 'SELECT tag FROM read.tag_followers WHERE user_id = ? ORDER BY tag_key LIMIT ?', [
        userId,
        TAG_LIST_MAX,
      ]);
      return rows.map((row) => row.tag);
    },
  };
}

export type NotificationsStore = ReturnType<typeof createNotificationsStore>;
