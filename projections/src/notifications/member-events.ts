import type { Knex } from '@forum/platform';
import type { ProjectedEvent } from '../runner/projection.ts';

/**
 * The notifications read model's events of one member or one post (see projection.ts): follows (a
 * run of them set-wise), and one statement each for what a member read, a post's deletion, an
 * erasure. Handles are written with the fan-out's mentions (run.ts).
 */
export type MemberEvent = ProjectedEvent<'NotificationsRead' | 'PostDeleted' | 'AccountErased'>;
export type HandleChanged = ProjectedEvent<'HandleChanged'>;
export type FollowEvent = ProjectedEvent<'PostFollowed' | 'PostUnfollowed' | 'TagFollowed' | 'TagUnfollowed'>;

export const MEMBER_EVENT_TYPES = [
  'PostFollowed',
  'PostUnfollowed',
  'TagFollowed',
  'TagUnfollowed',
  'HandleChanged',
  'NotificationsRead',
  'PostDeleted',
  'AccountErased',
] as const satisfies readonly (MemberEvent | FollowEvent | HandleChanged)['type'][];

/**
 * A run of follow choices, set-wise: a member's last choice about a post or a tag in the run is the
 * one that stands (each sets it whatever it was). A post choice stands for good: an author's or a
 * commenter's default never overrides it; a choice about a post the read model does not know (gone)
 * is not kept.
 */
export class FollowChoices {
  private readonly posts = new Map<string, { postId: string; userId: string; following: boolean }>();
  private readonly tags = new Map<string, { tag: string; userId: string; following: boolean }>();
  private readonly postIds = new Set<string>();

  /** Whether a choice of the run is about the post. */
  touches(postId: string): boolean {
    return this.postIds.has(postId);
  }

  add(event: FollowEvent): void {
    const following = event.type === 'PostFollowed' || event.type === 'TagFollowed';
    if (event.type === 'PostFollowed' || event.type === 'PostUnfollowed') {
      const { postId, userId } = event.data;
      this.posts.set(`${postId} ${userId}`, { postId, userId, following });
      this.postIds.add(postId);
    } else {
      const { tag, userId } = event.data;
      this.tags.set(`${tag.toLowerCase()} ${userId}`, { tag, userId, following });
    }
  }

  async write(trx: Knex.Transaction): Promise<void> {
    if (this.posts.size > 0)
      await trx.raw(
        `INSERT INTO post_followers (post_id, user_id, following, explicit)
         SELECT c."postId", c."userId", c.following, true FROM jsonb_to_recordset(?::jsonb) AS c("postId" uuid, "userId" text, following boolean)
         WHERE EXISTS (SELECT 1 FROM post_authors a WHERE a.post_id = c."postId")
         ON CONFLICT (post_id, user_id) DO UPDATE SET following = EXCLUDED.following, explicit = true`,
        [JSON.stringify([...this.posts.values()])],
      );
    if (this.tags.size > 0)
      await trx.raw(
        `WITH c AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS c(tag text, "userId" text, following boolean)),
         dropped AS (DELETE FROM tag_followers f USING c WHERE NOT c.following AND f.tag_key = lower(c.tag) AND f.user_id = c."userId")
         INSERT INTO tag_followers (tag_key, user_id, tag) SELECT lower(tag), "userId", tag FROM c WHERE following
         ON CONFLICT (tag_key, user_id) DO UPDATE SET tag = EXCLUDED.tag`,
        [JSON.stringify([...this.tags.values()])],
      );
    this.posts.clear();
    this.tags.clear();
    this.postIds.clear();
  }
}

export async function applyMemberEvent(trx: Knex.Transaction, event: MemberEvent): Promise<void> {
  switch (event.type) {
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
