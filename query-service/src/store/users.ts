import type { AccountDenial } from '@forum/contracts';
import type { Knex } from '@forum/platform';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  photo_url: string;
  role: 'user' | 'admin';
  is_member: boolean;
  registered_at: Date;
}

export function createUsersStore(db: Knex) {
  return {
    /** The caller's forum record and whether their account is denied, in one statement (every signed-in read asks). */
    async viewer(id: string): Promise<{ row: UserRow | null; denied: AccountDenial | null }> {
      const { rows } = await db.raw<{ rows: (UserRow & { denied: AccountDenial | null })[] }>(
        `SELECT u.*, d.reason AS denied FROM (SELECT ?::text AS viewer) q
         LEFT JOIN read.users u ON u.id = q.viewer LEFT JOIN read.account_denials d ON d.user_id = q.viewer`,
        [id],
      );
      const { denied, ...row } = rows[0]!;
      return { row: row.id === null ? null : row, denied };
    },
    async byId(id: string): Promise<UserRow | null> {
      const { rows } = await db.raw<{ rows: UserRow[] }>('SELECT * FROM read.users WHERE id = ?', [id]);
      return rows[0] ?? null;
    },
    async byEmail(email: string): Promise<UserRow | null> {
      const { rows } = await db.raw<{ rows: UserRow[] }>('SELECT * FROM read.users WHERE lower(email) = lower(?) ORDER BY registered_at LIMIT 1', [email]);
      return rows[0] ?? null;
    },
  };
}
export type UsersStore = ReturnType<typeof createUsersStore>;
