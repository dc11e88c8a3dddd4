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
