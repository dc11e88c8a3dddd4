import type { Knex } from '@forum/platform';

/**
 * Which user an email names, for calls addressed by email. A lookup, not a
 * rule: the rules of those calls are decided on the user's stream.
 */
export interface UserDirectory {
  userIdByEmail(email: string): Promise<string | null>;
}

export function readModelDirectory(db: Knex): UserDirectory {
  return {
    async userIdByEmail(email) {
      const { rows } = await db.raw<{ rows: { id: string }[] }>('SELECT id FROM read.users WHERE lower(email) = lower(?) ORDER BY registered_at LIMIT 1', [email]);
      return rows[0]?.id ?? null;
    },
  };
}
