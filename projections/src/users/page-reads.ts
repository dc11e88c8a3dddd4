import type { Knex } from '@forum/platform';

/*
 * The reads of a page of the admin's user list through the page anchors the users projection keeps
 * (pages.ts): the list's sorts and the query side's statements over the anchors' layout, apart from
 * the triggers that keep them.
 */

/** The admin list's sorts (react-admin's field names), each with the key its users are ordered by (then the id). */
export const USER_LISTS = {
  name: 'lower(name)',
  email: 'lower(email)',
  role: 'role',
  isMember: 'is_member::text',
  registeredAt: 'registered_key',
  id: 'id',
} as const;
export type UserList = keyof typeof USER_LISTS;

/**
 * The statement for `limit` users of `list` in `direction` from `offset`, through the anchors; its
 * first row's `current` is false when they are out of date (then it has no users: page with OFFSET).
 * `names`: the users relation, the anchors' tables, the columns to read and the statement of the total.
 * The users come with `sort_key` (the list's key) beside `columns`.
 */
export function usersThroughBlocks(
  list: UserList,
  direction: 'ASC' | 'DESC',
  names: { users: string; blocks: string; settings: string; columns: string; total: string },
  offset: number,
  limit: number,
): { sql: string; bindings: Knex.RawBinding[] } {
  const key = USER_LISTS[list].replace(/\b(name|email|role|is_member|registered_key|id)\b/g, 'u.$1');
  const sql = `
    WITH settings AS (SELECT valid FROM ${names.settings}),
    blocks AS (
      SELECT lo_k, lo_id, size, sum(size) OVER (ORDER BY lo_k, lo_id) AS upto, sum(size) OVER () AS total
      FROM ${names.blocks} WHERE list = ? AND (SELECT valid FROM settings)
    ),
    -- where the page starts and how many it holds, counted from the list's start
    want AS (
      SELECT CASE WHEN ?::boolean THEN greatest(total - ?::integer - ?::integer, 0) ELSE ?::integer END AS a,
             greatest(CASE WHEN ?::boolean THEN least(?::integer, total - ?::integer) ELSE ?::integer END, 0) AS n
      FROM blocks LIMIT 1
    ),
    target AS (SELECT b.*, w.a, w.n FROM blocks b, want w WHERE b.upto > w.a ORDER BY b.upto LIMIT 1)
    SELECT s.valid AS current, (${names.total}) AS total, r.*
    FROM settings s
    LEFT JOIN (target t CROSS JOIN LATERAL (
      SELECT ${names.columns}, ${key} AS sort_key FROM ${names.users} u
      WHERE (${key}, u.id) >= (t.lo_k, t.lo_id)
      ORDER BY ${key}, u.id OFFSET (t.a - (t.upto - t.size)) LIMIT t.n
    ) r) ON true
    ORDER BY r.sort_key ${direction}, r.id ${direction}`;
  const desc = direction === 'DESC';
  return { sql, bindings: [list, desc, offset, limit, offset, desc, limit, offset, limit] };
}
