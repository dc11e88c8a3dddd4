import type { Knex } from '@forum/platform';
import type { ProjectedEvent } from '../runner/projection.ts';

/**
 * The notifications read model's events of one member or one post (see projection.ts), one
 * statement or two each: follows, handles, what they read, a post's deletion, an erasure.
 */
export type MemberEvent = ProjectedEvent<
  'PostFollowed' | 'PostUnfollowed' | 'TagFollowed' | 'TagUnfollowed' | 'HandleChanged' | 'NotificationsRead' | 'PostDeleted' | 'AccountErased'
>;

export const MEMBER_EVENT_TYPES = [
  'PostFollowed',
  'PostUnfollowed',
  'TagFollowed',
  'TagUnfollowed',
  'HandleChanged',
  'NotificationsRead',
  'PostDeleted',
  'AccountErased',
] as const satisfies readonly MemberEvent['type'][];

export async function applyMemberEvent(trx: Knex.Transaction, event: MemberEvent): Promise<void> {
  switch (event.type) {
    case 'PostFollowed':
    case 'PostUnfollowed': {
      // a choice stands for good: an author's or a commenter's default never overrides it
      const { userId, postId } = event.data;
      await trx.raw(
        `INSERT INTO post_followers (post_id, user_id, following, explicit)
         SELECT :postId, :userId, :following, true WHERE EXISTS (SELECT 1 FROM post_authors WHERE post_id = :postId)
         ON CONFLICT (post_id, user_id) DO UPDATE SET following = EXCLUDED.following, explicit = true`,
        { postId, userId, following: event.type === 'PostFollowed' },
      );
      return;
    }
    case 'TagFollowed': {
      const { userId, tag } = event.data;
      await trx.raw(
        `INSERT INTO tag_followers (tag_key, user_id, tag) VALUES (lower(:tag), :userId, :tag)
         ON CONFLICT (tag_key, user_id) DO UPDATE SET tag = EXCLUDED.tag`,
        { tag, userId },
      );
      return;
    }
    case 'TagUnfollowed':
      await trx.raw('DELETE FROM tag_followers WHERE tag_key = lower(?) AND user_id = ?', [event.data.tag, event.data.userId]);
      return;
    case 'HandleChanged':
      await trx.raw(
        `INSERT INTO handles (user_id, handle) VALUES (:userId, lower(:handle))
         ON CONFLICT (user_id) DO UPDATE SET handle = EXCLUDED.handle`,
        { userId: event.data.userId, handle: event.data.handle },
      );
      return;
    case 'NotificationsRead': {
      // only the member's own rows, and never a warning (WarningsRead reads those)
      const { userId, ids, upTo } = event.data;
      await trx.raw(
        `UPDATE notifications SET read = true
         WHERE user_id = :userId AND kind <> 'warning' AND NOT read
           AND (:ids::uuid[] IS NULL OR id = ANY(:ids::uuid[])) AND (:upTo::timestamptz IS NULL OR updated_at <= :upTo::timestamptz)`,
        { userId, ids: ids ?? null, upTo: upTo ?? null },
      );
      return;
    }
    case 'PostDeleted': {
      // its notifications stay, and read as gone (the read side finds no post)
      const { postId } = event.data;
      await trx.raw('WITH gone AS (DELETE FROM post_authors WHERE post_id = :postId) DELETE FROM post_followers WHERE post_id = :postId', { postId });
      return;
    }
    case 'AccountErased': {
      // nothing reaches an erased member again; what they wrote no longer mentions anyone when their text goes with them
      const { userId, content } = event.data;
      await trx.raw(
        `WITH n AS (DELETE FROM notifications WHERE user_id = :userId OR (:erased AND kind = 'mention' AND actor_id = :userId)),
         a AS (DELETE FROM announcements_read WHERE user_id = :userId),
         p AS (DELETE FROM post_followers WHERE user_id = :userId),
         t AS (DELETE FROM tag_followers WHERE user_id = :userId),
         m AS (DELETE FROM mentioned WHERE user_id = :userId)
         DELETE FROM handles WHERE user_id = :userId`,
        { userId, erased: content === 'erased' },
      );
      return;
    }
    default: {
      const unknown: never = event;
      throw new Error(`not a member's event: ${JSON.stringify(unknown)}`);
    }
  }
}
