import type { Knex } from '@forum/platform';

/**
 * Which user an email names, for calls addressed by email. A lookup, not a
 * rule: the rules of those calls are decided on the user's stream.
 */
export interface UserDirectory {
  userIdByEmail(email: string): Promise<string | null>;
  /**
   * A member's posts, and their comments on others' posts (those on their own go with the posts),
   * as the read models list them: what their erasure takes with it when they choose so.
   */
  contentOf(userId: string): Promise<{ posts: string[]; comments: string[] }>;
}

export function readModelDirectory(db: Knex): UserDirectory {
  return {
    async userIdByEmail(email) {
      const { rows } = await db.raw<{ rows: { id: string }[] }>('SELECT id FROM read.users WHERE lower(email) = lower(?) ORDER BY registered_at LIMIT 1', [email]);
      return rows[0]?.id ?? null;
    },
    async contentOf(userId) {
      const { rows } = await db.raw<{ rows: { kind: 'post' | 'comment'; id: string }[] }>(
        `SELECT 'post' AS kind, id::text FROM read.posts WHERE author_id = ?
         UNION ALL
         SELECT 'comment', c.id::text FROM read.comments c WHERE c.author_id = ?
           AND NOT EXISTS (SELECT 1 FROM read.posts p WHERE p.id = c.post_id AND p.author_id = ?)`,
        [userId, userId, userId],
      );
      return { posts: rows.filter((r) => r.kind === 'post').map((r) => r.id), comments: rows.filter((r) => r.kind === 'comment').map((r) => r.id) };
    },
  };
}
