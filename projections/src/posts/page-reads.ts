import type { Knex } from '@forum/platform';

/*
 * The reads of a page of posts through the page anchors the posts projection keeps (pages.ts): the
 * query side's statements over the anchors' layout, apart from the triggers that keep them.
 */

/** The posts of the home page's lists (`p`): neither hidden nor pinned by staff (issue #43); a tag's list is kept of posts not hidden. */
export const LISTED = 'p.hidden_at IS NULL AND p.pinned_at IS NULL';

/** How a list orders and filters posts (`p`: the posts relation's alias). */
export type PostList = { kind: 'newest' } | { kind: 'popular' } | { kind: 'tag'; tag: string };

/**
 * The statement for `limit` posts of `list` from `offset`, through the anchors, or null rows when
 * they are out of date (see `pageThroughBlocks`). `relation` names the posts (read.posts);
 * `blocks`/`settings`: the anchors' tables (read.post_page_blocks, read.post_page_settings).
 * Columns: `columns` of the posts, plus `current` (false: the anchors were out of date, no rows)
 * and `total` when `names.total` gives the statement of the list's total (one round trip for both).
 */
export function pageThroughBlocks(
  list: PostList,
  names: { posts: string; blocks: string; settings: string; tags: string; columns: string; total?: { sql: string; bindings: Knex.RawBinding[] } },
  offset: number,
  limit: number,
): { sql: string; bindings: Knex.RawBinding[] } {
  // a tag as given: lower-cased as the projection lower-cases tags (PostgreSQL's lower())
  const listName = list.kind === 'tag' ? list.tag : list.kind;
  const above = list.kind === 'popular' ? '(t.hi_score, t.hi_created, t.hi_id)' : '(t.hi_created, t.hi_id)';
  // the page inside the target block. 'newest' reads its rows straight from its index: rows made one
  // after another sit together in the table, so the rows skipped share a few pages. A tag's and
  // 'popular' skip on their keys alone (an index-only scan of post_tags' and of the popular index)
  // and read only the page's posts: in 'popular' order each skipped row would be on a page of its own.
  const ids =
    list.kind === 'tag'
      ? `SELECT g.id FROM ${names.tags} g
         WHERE g.tag_key = lower(?) AND (g.created_at, g.id) < ${above}
         ORDER BY g.created_at DESC, g.id DESC OFFSET (? - (t.upto - t.size)) LIMIT ?`
      : list.kind === 'popular'
        ? `SELECT p.score, p.created_at, p.id FROM ${names.posts} p
           WHERE (p.score, p.created_at, p.id) < ${above} AND ${LISTED}
           ORDER BY p.score DESC, p.created_at DESC, p.id DESC OFFSET (? - (t.upto - t.size)) LIMIT ?`
        : null;
  const rows = ids
    ? `SELECT p.* FROM (${ids}) g CROSS JOIN LATERAL (SELECT ${names.columns} FROM ${names.posts} p WHERE p.id = g.id) p`
    : `SELECT ${names.columns} FROM ${names.posts} p
       WHERE (p.created_at, p.id) < ${above} AND ${LISTED}
       ORDER BY p.created_at DESC, p.id DESC OFFSET (? - (t.upto - t.size)) LIMIT ?`;
  const sql = `
    WITH settings AS (SELECT valid FROM ${names.settings}),
    blocks AS (
      SELECT list, lo_score, lo_created, lo_id, size, sum(size) OVER w AS upto
      FROM ${names.blocks} WHERE list = ${list.kind === 'tag' ? `'tag:' || lower(?)` : '?'} AND (SELECT valid FROM settings)
      WINDOW w AS (ORDER BY lo_score DESC, lo_created DESC, lo_id DESC)
    ),
    -- the first block past the offset, in the window's own order (the running sum only grows along it): no sort, and
    -- the window stops there (page 1 reads one block, not the list's thousand)
    target AS (SELECT * FROM blocks WHERE upto > ? ORDER BY lo_score DESC, lo_created DESC, lo_id DESC LIMIT 1)
    SELECT s.valid AS current, ${names.total ? `(${names.total.sql}) AS total, ` : ''}r.*
    FROM settings s
    LEFT JOIN (
      target b
      -- where the block ends: the next block's lowest key (one step into the index), or past the highest key
      LEFT JOIN LATERAL (
        SELECT lo_score, lo_created, lo_id FROM ${names.blocks}
        WHERE list = b.list AND (lo_score, lo_created, lo_id) > (b.lo_score, b.lo_created, b.lo_id)
        ORDER BY lo_score, lo_created, lo_id LIMIT 1
      ) n ON true
      CROSS JOIN LATERAL (
        SELECT b.size, b.upto, coalesce(n.lo_score, 2147483647) AS hi_score, coalesce(n.lo_created, 'infinity'::timestamptz) AS hi_created,
               coalesce(n.lo_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid) AS hi_id
      ) t
      CROSS JOIN LATERAL (${rows}) r
    ) ON true
    ORDER BY ${list.kind === 'popular' ? 'r.up_vote - r.down_vote DESC, ' : ''}r.created_at DESC, r.id DESC`;
  const bindings: Knex.RawBinding[] = [listName, offset, ...(names.total?.bindings ?? []), ...(list.kind === 'tag' ? [list.tag] : []), offset, limit];
  return { sql, bindings };
}
