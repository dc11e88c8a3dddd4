import { HANDLE_SUGGESTIONS_MAX, type AccountDenial, type Role, type SuspensionDetails } from '@forum/contracts';
import type { Knex } from '@forum/platform';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  photo_url: string;
  /** null until the member has one (docs/notifications.md#handles) */
  handle: string | null;
  role: Role;
  is_member: boolean;
  registered_at: Date;
  /** The last suspension until lifted (issue #43): in force while `suspended_until` is ahead, or null (until lifted). */
  suspended: boolean;
  suspension_reason: string | null;
  suspended_until: Date | null;
}

/** The member's suspension in force at `now` (none once its end has passed: no event ends it), or null. */
export function suspensionAt(row: Pick<UserRow, 'suspended' | 'suspension_reason' | 'suspended_until'>, now: Date): SuspensionDetails | null {
  if (!row.suspended || (row.suspended_until !== null && row.suspended_until.getTime() <= now.getTime())) return null;
  return { reason: row.suspension_reason ?? '', until: row.suspended_until?.toISOString() ?? null };
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
    /**
     * The editor's @ autocomplete: members whose handle starts with `prefix` (ignoring case), the exact
     * match first, then by handle; at most HANDLE_SUGGESTIONS_MAX, none disabled (erased members have no
     * row). Both steps are one walk of the handles' index (users_handle, in C order).
     */
    async handleSuggestions(prefix: string): Promise<HandleRow[]> {
      const folded = prefix.toLowerCase();
      const { rows } = await db.raw<{ rows: HandleRow[] }>(
        `SELECT * FROM (
           (SELECT id, handle, name, photo_url, 0 AS rank FROM read.users WHERE lower(handle) COLLATE "C" = ? AND handle IS NOT NULL)
           UNION ALL
           (SELECT id, handle, name, photo_url, 1 FROM read.users
            WHERE lower(handle) COLLATE "C" LIKE ? AND handle IS NOT NULL AND lower(handle) COLLATE "C" <> ?
              AND NOT EXISTS (SELECT 1 FROM read.account_denials d WHERE d.user_id = users.id)
            ORDER BY lower(handle) COLLATE "C" LIMIT ?)
         ) found
         WHERE NOT EXISTS (SELECT 1 FROM read.account_denials d WHERE d.user_id = found.id)
         ORDER BY rank, lower(handle) COLLATE "C" LIMIT ?`,
        [folded, `${folded.replace(/[\\%_]/g, '\\$&')}%`, folded, HANDLE_SUGGESTIONS_MAX, HANDLE_SUGGESTIONS_MAX],
      );
      return rows;
    },
  };
}

/** A member as the @ autocomplete offers them. */
export interface HandleRow {
  id: string;
  handle: string;
  name: string;
  photo_url: string;
}
export type UsersStore = ReturnType<typeof createUsersStore>;
