import { ADMIN_PAGE_SIZE, UNPAGED_LIST_MAX, type AuditEntry, type AuditType } from '@forum/contracts';
import { prepared, type Knex } from '@forum/platform';
import { projectionStatus, USER_LISTS, usersThroughBlocks, type UserList } from '@forum/projections/read-model';
import type { UserRow } from './users.ts';

/** The admin lists read the same users read model as everyone else. */
export type AdminUserRow = UserRow;

export interface AdminTagRow {
  id: string;
  name: string;
}

export interface AnnouncementRow {
  id: string;
  title: string;
  description: string;
  author_name: string;
  author_photo: string;
  published_at: Date;
}

export interface ContactMessageRow {
  id: string;
  name: string;
  email: string;
  message: string;
  received_at: Date;
}

export interface AuditRow {
  id: string;
  at: Date;
  actor_id: string;
  actor_name: string | null;
  actor_email: string | null;
  type: AuditType;
  target_type: AuditEntry['target']['type'];
  target_id: string;
  summary: string;
}

/** What narrows the staff action log: `from` inclusive, `before` exclusive (AuditFilter's span). */
export interface AuditLogFilter {
  actor?: string;
  type?: AuditType;
  from?: Date;
  before?: Date;
}

const USER_COLUMNS = 'id, email, name, photo_url, handle, role, is_member, registered_at, suspended, suspension_reason, suspended_until';
const USERS_TOTAL = `SELECT value FROM read.user_counters WHERE name = 'users'`;

/** `text` as a LIKE pattern that matches it anywhere, lower-cased, its wildcards escaped. */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
const SEARCH = `(lower(name) LIKE ? ESCAPE '\\' OR lower(email) LIKE ? ESCAPE '\\')`;
/** A moderator's search: names alone (they see no emails, so none may match). */
const NAME_SEARCH = `lower(name) LIKE ? ESCAPE '\\'`;

const counter = async (db: Knex, sql: string, params: readonly Knex.RawBinding[] = []) => {
  const { rows } = await db.raw<{ rows: { value: string | number | null }[] }>(sql, params);
  return Number(rows[0]?.value ?? 0);
};

export function createAdminStore(db: Knex) {
  /**
   * Users in one of the admin list's sorts (USER_LISTS: the name by default). Without a search: the
   * page through the users projection's page anchors (any page in about the time of the first; with
   * OFFSET while a replay has them out of date) and the total from the counter row, in one statement.
   * With one: "name or email contains", ignoring case, through the trigram indexes where PostgreSQL
   * has pg_trgm (three letters or more), else reading every user; the matches page with OFFSET.
   * Without `byEmail` (a moderator's list) the search looks in names alone.
   */
  async function users(
    offset: number,
    limit: number,
    search: string,
    list: UserList = 'name',
    direction: 'ASC' | 'DESC' = 'ASC',
    byEmail = true,
  ): Promise<{ rows: AdminUserRow[]; total: number }> {
    const order = `${USER_LISTS[list]} ${direction}, id ${direction}`;
    if (search === '') {
      const names = { users: 'read.users', blocks: 'read.user_page_blocks', settings: 'read.user_page_settings', columns: USER_COLUMNS, total: USERS_TOTAL };
      const { sql, bindings } = usersThroughBlocks(list, direction, names, offset, limit);
      const { rows }: { rows: (AdminUserRow & { current: boolean; total: string | null; sort_key: string })[] } = await prepared(db, sql, bindings);
      const total = Number(rows[0]?.total ?? 0);
      if (rows[0]?.current) return { rows: rows.filter((row) => row.id !== null).map(({ current: _, total: __, sort_key: ___, ...row }) => row), total };
      const offsetPaged = await db.raw<{ rows: AdminUserRow[] }>(`SELECT ${USER_COLUMNS} FROM read.users ORDER BY ${order} LIMIT ? OFFSET ?`, [limit, offset]);
      return { rows: offsetPaged.rows, total };
    }
    const pattern = containsPattern(search);
    const [where, patterns] = byEmail ? [SEARCH, [pattern, pattern]] : [NAME_SEARCH, [pattern]];
    const [rows, total] = await Promise.all([
      db.raw<{ rows: AdminUserRow[] }>(`SELECT ${USER_COLUMNS} FROM read.users WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`, [
        ...patterns,
        limit,
        offset,
      ]),
      counter(db, `SELECT count(*) AS value FROM read.users WHERE ${where}`, patterns),
    ]);
    return { rows: rows.rows, total };
  }

  return {
    /** Every projection build (live, building, halted) with its checkpoint and lag. */
    projections: () => projectionStatus(db),

    /** The admin dashboard's stat cards, from counter rows. Comments count 0 until the comments read model exists. */
    async stats(): Promise<{ totalPosts: number; totalComments: number; totalUsers: number }> {
      const { rows } = await db.raw<{ rows: { posts: string | null; users: string | null; comments_view: boolean }[] }>(
        `SELECT (SELECT value FROM read.post_counters WHERE name = 'posts') AS posts,
                (SELECT value FROM read.user_counters WHERE name = 'users') AS users,
                to_regclass('read.comment_counters') IS NOT NULL AS comments_view`,
      );
      const row = rows[0]!;
      const totalComments = row.comments_view ? await counter(db, `SELECT value FROM read.comment_counters WHERE name = 'comments'`) : 0;
      return { totalPosts: Number(row.posts ?? 0), totalComments, totalUsers: Number(row.users ?? 0) };
    },

    /** `limit` tags from `offset`, by name, and how many there are (an admin-curated list: counted, not kept in a counter). */
    async tags(offset: number, limit: number): Promise<{ rows: AdminTagRow[]; total: number }> {
      const { rows } = await db.raw<{ rows: (AdminTagRow & { total: number })[] }>(
        'SELECT id, name, count(*) OVER ()::integer AS total FROM read.tags ORDER BY lower(name), id LIMIT ? OFFSET ?',
        [limit, offset],
      );
      // a range past the last tag has no row to carry the count
      const total = rows[0]?.total ?? (offset > 0 ? await counter(db, 'SELECT count(*) AS value FROM read.tags') : 0);
      return { rows: rows.map(({ total: _, ...tag }) => tag), total };
    },

    async userById(id: string): Promise<AdminUserRow | null> {
      const { rows } = await db.raw<{ rows: AdminUserRow[] }>(`SELECT ${USER_COLUMNS} FROM read.users WHERE id = ?`, [id]);
      return rows[0] ?? null;
    },

    /** Name and email of each of these users the forum knows. */
    async people(ids: readonly string[]): Promise<{ id: string; name: string; email: string }[]> {
      if (ids.length === 0) return [];
      const { rows } = await db.raw<{ rows: { id: string; name: string; email: string }[] }>('SELECT id, name, email FROM read.users WHERE id = ANY(?)', [
        [...ids],
      ]);
      return rows;
    },

    usersPage: (page: number, search: string, byEmail: boolean) => users((page - 1) * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE, search, 'name', 'ASC', byEmail),

    usersRange: (start: number, end: number, search: string, field: string, direction: 'ASC' | 'DESC', byEmail: boolean) =>
      // a moderator's list is not sorted by the emails they do not see
      users(
        start,
        end - start + 1,
        search,
        Object.hasOwn(USER_LISTS, field) && (byEmail || field !== 'email') ? (field as UserList) : 'name',
        direction,
        byEmail,
      ),

    /** The newest announcements (the spec's unpaged call: at most UNPAGED_LIST_MAX). */
    async announcements(offset = 0, limit = UNPAGED_LIST_MAX): Promise<{ rows: AnnouncementRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        db.raw<{ rows: AnnouncementRow[] }>(
          `SELECT id, title, description, author_name, author_photo, published_at FROM read.announcements
           ORDER BY published_at DESC, id DESC LIMIT ? OFFSET ?`,
          [limit, offset],
        ),
        counter(db, `SELECT value FROM read.announcement_counters WHERE name = 'announcements'`),
      ]);
      return { rows: rows.rows, total };
    },

    async contactMessages(offset: number, limit: number): Promise<{ rows: ContactMessageRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        db.raw<{ rows: ContactMessageRow[] }>(
          'SELECT id, name, email, message, received_at FROM read.contact_messages ORDER BY received_at DESC, id DESC LIMIT ? OFFSET ?',
          [limit, offset],
        ),
        counter(db, `SELECT value FROM read.contact_counters WHERE name = 'messages'`),
      ]);
      return { rows: rows.rows, total };
    },

    /**
     * The staff action log, newest first. `actor` is a user id or an email (every
     * forum record with that email); `from` (inclusive) and `before` (exclusive)
     * bound `at`. Without a time bound the total comes from the projection's counter
     * rows per actor, per type and per both; with one it is counted off the entries'
     * `at` indexes.
     */
    async audit(filter: AuditLogFilter, offset: number, limit: number): Promise<{ rows: AuditRow[]; total: number }> {
      let actorIds: string[] | null = null;
      if (filter.actor !== undefined) {
        actorIds = filter.actor.includes('@')
          ? (await db.raw<{ rows: { id: string }[] }>('SELECT id FROM read.audit_people WHERE lower(email) = lower(?)', [filter.actor])).rows.map((r) => r.id)
          : [filter.actor];
        if (actorIds.length === 0) return { rows: [], total: 0 };
      }
      const where: string[] = [];
      const params: Knex.RawBinding[] = [];
      if (actorIds) {
        where.push('e.actor_id = ANY(?)');
        params.push(actorIds);
      }
      if (filter.type) {
        where.push('e.type = ?');
        params.push(filter.type);
      }
      if (filter.from) {
        where.push('e.at >= ?');
        params.push(filter.from);
      }
      if (filter.before) {
        where.push('e.at < ?');
        params.push(filter.before);
      }
      const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const timed = filter.from !== undefined || filter.before !== undefined;
      const [rows, total] = await Promise.all([
        db.raw<{ rows: AuditRow[] }>(
          `SELECT e.global_position::text AS id, e.at, e.actor_id, p.name AS actor_name, p.email AS actor_email,
                  e.type, e.target_type, e.target_id, e.summary
           FROM read.audit_entries e LEFT JOIN read.audit_people p ON p.id = e.actor_id
           ${whereSql}
           ORDER BY e.at DESC, e.global_position DESC LIMIT ? OFFSET ?`,
          [...params, limit, offset],
        ),
        timed
          ? counter(db, `SELECT count(*) AS value FROM read.audit_entries e ${whereSql}`, params)
          : counter(db, 'SELECT sum(value) AS value FROM read.audit_counters WHERE actor_id = ANY(?) AND type = ?', [actorIds ?? [''], filter.type ?? '']),
      ]);
      return { rows: rows.rows, total };
    },
  };
}
export type AdminStore = ReturnType<typeof createAdminStore>;
