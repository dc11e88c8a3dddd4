import type { Knex } from '@forum/platform';
import { applyBlockDeltas, blocksFollower, type PageBlocks } from '../page-blocks.ts';

/**
 * Any page of a post list in about the time of the first: page anchors the posts projection keeps.
 *
 * Each ordered list of posts — 'newest' (created_at, id), 'popular' (score, created_at, id) and
 * 'tag:<key>' (a tag's posts, newest first) — is cut into blocks of consecutive posts. A block is
 * named by its lowest key (`lo`, inclusive; the list's first block starts at the lowest possible
 * key) and knows how many posts it holds. Page N then needs the blocks' running sizes (a few
 * thousand small rows at a million posts), one step into the block holding its first row, and at
 * most a block of rows skipped there — not the (N − 1) × PAGE_SIZE rows an OFFSET walks.
 *
 * Triggers keep the sizes exact on every write to `posts` (insert, delete, a vote that moves a
 * post in 'popular', an edit that changes its tags), split a block that grows past twice PAGE_BLOCK rows at its middle post, and
 * drop emptied ones. A replay without its read indexes (a build, a first start on a big log:
 * `forum.deferred` on) would make splits scan the table, so there the triggers only mark the
 * anchors out of date, and the build makes them afresh from its rows once its indexes exist
 * (`rebuildPageBlocks`, from `derived.rebuild`). Readers of out-of-date anchors page with OFFSET.
 *
 * A tag's list walks `post_tags` (each post under each of its tags, keyed tag, newest first),
 * which the same trigger keeps: one step into its index, not a walk of every post checking its tags.
 *
 * The blocks depend on the order in which batches came, not only on the log: `verify` and the
 * batch-size tests check them with `pageBlockProblems` (every size matches the posts in its
 * range) instead of row for row.
 */

/** Posts per block when anchors are made afresh; a block splits past twice this. */
export const PAGE_BLOCK = 1000;

const LOWEST = `-2147483648, '-infinity'::timestamptz, '00000000-0000-0000-0000-000000000000'::uuid`;

/**
 * Which posts the lists hold (issue #43): the home page's ('newest', 'popular') neither hidden nor
 * pinned (the first page shows the pinned ones apart), a tag's not hidden. `r`: a posts relation's alias.
 */
const LISTED = (r: string) => `${r}.hidden_at IS NULL AND ${r}.pinned_at IS NULL`;
const VISIBLE = (r: string) => `${r}.hidden_at IS NULL`;

/** A list's entries of a relation of post rows: (list, s, c, id), in each list's ascending key order. */
const entriesOf = (rows: string) => `
  SELECT 'newest'::text AS list, 0 AS s, created_at AS c, id FROM ${rows} r WHERE ${LISTED('r')}
  UNION ALL SELECT 'popular', score, created_at, id FROM ${rows} r WHERE ${LISTED('r')}
  UNION ALL SELECT 'tag:' || k, 0, r.created_at, r.id FROM ${rows} r, unnest(r.tag_keys) AS k WHERE ${VISIBLE('r')}`;

/**
 * The tag lists' entries an update of `posts` (its transition tables) takes away (`d` -1: the tags
 * a post left) or adds (1: those it took), as (list, s, c, id, d), of posts shown before and after.
 */
const retagged = (d: '-1' | '1') => {
  const [from, other] = d === '1' ? ['n', 'o'] : ['o', 'n'];
  return `SELECT 'tag:' || k AS list, 0 AS s, ${from}.created_at AS c, ${from}.id, ${d} AS d
    FROM old_rows o JOIN new_rows n ON n.id = o.id, unnest(${from}.tag_keys) AS k
    WHERE o.tag_keys <> n.tag_keys AND NOT k = ANY (${other}.tag_keys) AND ${VISIBLE('o')} AND ${VISIBLE('n')}`;
};

/** The tag lists' entries of posts an update hid (`d` -1: their tags before) or showed again (1: their tags after). */
const revealed = (d: '-1' | '1') => {
  const row = d === '1' ? 'n' : 'o';
  return `SELECT 'tag:' || k AS list, 0 AS s, ${row}.created_at AS c, ${row}.id, ${d} AS d
    FROM old_rows o JOIN new_rows n ON n.id = o.id, unnest(${row}.tag_keys) AS k
    WHERE (${VISIBLE('o')}) <> (${VISIBLE('n')}) AND ${VISIBLE(row)}`;
};

/** The home page's entries of posts an update took out of its lists (`d` -1: hidden or pinned) or put back (1). */
const relisted = (d: '-1' | '1') => {
  const row = d === '1' ? 'n' : 'o';
  return `SELECT l.list, l.s, ${row}.created_at AS c, ${row}.id, ${d} AS d
    FROM old_rows o JOIN new_rows n ON n.id = o.id, LATERAL (VALUES ('newest'::text, 0), ('popular', ${row}.score)) AS l(list, s)
    WHERE (${LISTED('o')}) <> (${LISTED('n')}) AND ${LISTED(row)}`;
};

/**
 * The rows of an update of `posts` whose tags or visibility it changed (some when any did). A set
 * difference, not a join of old_rows with new_rows on id: an UPDATE writes each row once, so a row's
 * (id, tags, visibility) is missing from new_rows exactly when the update changed them. Hashed or
 * sorted, it reads each side once; an EXISTS over the join is planned for its first match (a
 * nested loop), and where nothing matches (a settle rewriting every post's counts, no tags) it
 * compared every old row with every new one: over two minutes for 20k posts, most of a rebuild.
 */
const TAGS_OR_VISIBILITY_CHANGED = `SELECT id, tag_keys, ${VISIBLE('o')} FROM old_rows o EXCEPT SELECT id, tag_keys, ${VISIBLE('n')} FROM new_rows n`;

/** The posts' anchors: blocks keyed (score, created_at, id), the lowest key naming each list's first block. */
const ANCHORS: PageBlocks = { blocks: 'page_blocks', settings: 'page_settings', key: ['lo_score', 'lo_created', 'lo_id'], first: "lo_created = '-infinity'" };

/** Adds each delta (list, s, c, id, d) to the size of the block holding its key. */
const applyDeltas = (deltas: string) => applyBlockDeltas(ANCHORS, ['s', 'c', 'id'], deltas);

/** Tables, functions and triggers of the anchors (in the build's schema, after `posts`). */
export const PAGE_BLOCKS_MIGRATION = `
  CREATE TABLE IF NOT EXISTS page_blocks (
    list text NOT NULL,
    lo_score integer NOT NULL,
    lo_created timestamptz NOT NULL,
    lo_id uuid NOT NULL,
    size integer NOT NULL,
    -- size included: a page's running sums are an index-only scan of the list's blocks (a block's
    -- row is rewritten at each change of its size, so the table's rows of one list are scattered)
    PRIMARY KEY (list, lo_score, lo_created, lo_id) INCLUDE (size)
  );
  -- each post under each of its tags (lower-cased), in a tag's list order: a tag's page walks this
  -- index, not every post checking its tags; kept in step with posts by page_blocks_follow, always
  -- (a replay too: the anchors may wait, a tag's page may not)
  CREATE TABLE IF NOT EXISTS post_tags (
    tag_key text NOT NULL,
    created_at timestamptz NOT NULL,
    id uuid NOT NULL,
    PRIMARY KEY (tag_key, created_at, id)
  );
  -- one row: the block size, and whether the blocks match the posts (false while a replay defers them)
  CREATE TABLE IF NOT EXISTS page_settings (one boolean PRIMARY KEY DEFAULT true CHECK (one), block integer NOT NULL, valid boolean NOT NULL);
  INSERT INTO page_settings (block, valid) VALUES (${PAGE_BLOCK}, true) ON CONFLICT DO NOTHING;

  CREATE OR REPLACE FUNCTION page_blocks_split(p_list text, p_score integer, p_created timestamptz, p_id uuid, p_size integer) RETURNS void
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  DECLARE
    v_hi record;
    v_mid record;
  BEGIN
    SELECT lo_score, lo_created, lo_id INTO v_hi FROM page_blocks
    WHERE list = p_list AND (lo_score, lo_created, lo_id) > (p_score, p_created, p_id)
    ORDER BY lo_score, lo_created, lo_id LIMIT 1;
    IF NOT FOUND THEN SELECT 2147483647 AS lo_score, 'infinity'::timestamptz AS lo_created, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid AS lo_id INTO v_hi; END IF;
    -- the block's middle post: (size / 2) posts of the block come before it
    IF p_list = 'newest' THEN
      SELECT 0 AS score, created_at, id INTO v_mid FROM posts r
      WHERE (created_at, id) >= (p_created, p_id) AND (created_at, id) < (v_hi.lo_created, v_hi.lo_id) AND ${LISTED('r')}
      ORDER BY created_at, id OFFSET p_size / 2 LIMIT 1;
    ELSIF p_list = 'popular' THEN
      SELECT score, created_at, id INTO v_mid FROM posts r
      WHERE (score, created_at, id) >= (p_score, p_created, p_id) AND (score, created_at, id) < (v_hi.lo_score, v_hi.lo_created, v_hi.lo_id) AND ${LISTED('r')}
      ORDER BY score, created_at, id OFFSET p_size / 2 LIMIT 1;
    ELSE
      SELECT 0 AS score, created_at, id INTO v_mid FROM post_tags
      WHERE tag_key = substr(p_list, 5) AND (created_at, id) >= (p_created, p_id) AND (created_at, id) < (v_hi.lo_created, v_hi.lo_id)
      ORDER BY created_at, id OFFSET p_size / 2 LIMIT 1;
    END IF;
    IF v_mid.id IS NULL THEN
      RAISE EXCEPTION 'page block % (%, %, %) holds fewer posts than its size %', p_list, p_score, p_created, p_id, p_size;
    END IF;
    UPDATE page_blocks SET size = p_size / 2 WHERE (list, lo_score, lo_created, lo_id) = (p_list, p_score, p_created, p_id);
    INSERT INTO page_blocks (list, lo_score, lo_created, lo_id, size) VALUES (p_list, v_mid.score, v_mid.created_at, v_mid.id, p_size - p_size / 2);
  END
  $fn$;

  ${blocksFollower(ANCHORS, {
    name: 'page_blocks_follow',
    triggers: 'page_blocks',
    table: 'posts',
    split: 'page_blocks_split',
    // a tag's list first (a split reads it), whatever the anchors' state; a post's time never changes, its tags by an edit,
    // whether it is shown by staff hiding it or showing it again
    before: `
    IF TG_OP = 'INSERT' THEN
      INSERT INTO post_tags (tag_key, created_at, id) SELECT k, created_at, id FROM new_rows r, unnest(tag_keys) AS k WHERE ${VISIBLE('r')} ON CONFLICT DO NOTHING;
    ELSIF TG_OP = 'DELETE' THEN
      DELETE FROM post_tags t USING (SELECT k, created_at, id FROM old_rows, unnest(tag_keys) AS k) o
      WHERE (t.tag_key, t.created_at, t.id) = (o.k, o.created_at, o.id);
    ELSIF EXISTS (${TAGS_OR_VISIBILITY_CHANGED}) THEN
      DELETE FROM post_tags t USING (${retagged('-1')} UNION ALL ${revealed('-1')}) o WHERE (t.tag_key, t.created_at, t.id) = (substr(o.list, 5), o.c, o.id);
      INSERT INTO post_tags (tag_key, created_at, id) SELECT substr(list, 5), c, id FROM (${retagged('1')} UNION ALL ${revealed('1')}) n ON CONFLICT DO NOTHING;
    END IF;`,
    onInsert: `
      INSERT INTO page_blocks (list, lo_score, lo_created, lo_id, size)
      SELECT DISTINCT e.list, ${LOWEST}, 0 FROM (${entriesOf('new_rows')}) e
      ON CONFLICT DO NOTHING;
      ${applyDeltas(`SELECT list, s, c, id, 1 AS d FROM (${entriesOf('new_rows')}) e`)}`,
    onDelete: applyDeltas(`SELECT list, s, c, id, -1 AS d FROM (${entriesOf('old_rows')}) e`),
    // a vote moves a listed post in 'popular'; an edit of its tags takes it out of some tags' lists and into others';
    // hiding takes it out of every list, pinning out of the home page's (and showing again, unpinning, back)
    onUpdate: `
      INSERT INTO page_blocks (list, lo_score, lo_created, lo_id, size)
      SELECT DISTINCT list, ${LOWEST}, 0 FROM (${retagged('1')} UNION ALL ${revealed('1')} UNION ALL ${relisted('1')}) e
      ON CONFLICT DO NOTHING;
      ${applyDeltas(`
        SELECT 'popular'::text AS list, m.s, m.c, m.id, m.d FROM old_rows o JOIN new_rows n ON n.id = o.id,
          LATERAL (VALUES (o.score, o.created_at, o.id, -1), (n.score, n.created_at, n.id, 1)) AS m(s, c, id, d)
        WHERE o.score <> n.score AND ${LISTED('o')} AND ${LISTED('n')}
        UNION ALL ${retagged('-1')}
        UNION ALL ${retagged('1')}
        UNION ALL ${revealed('-1')}
        UNION ALL ${revealed('1')}
        UNION ALL ${relisted('-1')}
        UNION ALL ${relisted('1')}`)}`,
  })}
`;

/** Makes every list's anchors afresh from the posts (blocks of `page_settings.block`), and marks them current. */
export async function rebuildPageBlocks(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`
    -- (not TRUNCATE: a live build's readers go on reading the old rows meanwhile, and page with OFFSET)
    DELETE FROM page_blocks;
    WITH ranked AS (
      SELECT list, s, c, id, row_number() OVER (PARTITION BY list ORDER BY s, c, id) - 1 AS rn, count(*) OVER (PARTITION BY list) AS n
      FROM (${entriesOf('posts')}) e
    )
    INSERT INTO page_blocks (list, lo_score, lo_created, lo_id, size)
    SELECT list,
           CASE WHEN rn = 0 THEN -2147483648 ELSE s END,
           CASE WHEN rn = 0 THEN '-infinity'::timestamptz ELSE c END,
           CASE WHEN rn = 0 THEN '00000000-0000-0000-0000-000000000000'::uuid ELSE id END,
           least(p.block, n - rn)
    FROM ranked, page_settings p WHERE rn % p.block = 0;
    UPDATE page_settings SET valid = true;
  `);
}

/** What is wrong with the anchors (empty: nothing): a block whose size is not the number of posts in its range, or posts before a list's first block. */
export async function pageBlockProblems(trx: Knex.Transaction): Promise<string[]> {
  const { rows: settings } = await trx.raw<{ rows: { valid: boolean }[] }>('SELECT valid FROM page_settings');
  if (!settings[0]?.valid) return [];
  const { rows } = await trx.raw<{ rows: { list: string; lo: string | null; size: number | null; n: number }[] }>(`
    WITH marks AS (
      SELECT list, lo_score AS s, lo_created AS c, lo_id AS id, 1 AS is_block, size FROM page_blocks
      UNION ALL SELECT list, s, c, id, 0, 0 FROM (${entriesOf('posts')}) e
    ),
    numbered AS (
      SELECT *, sum(is_block) OVER (PARTITION BY list ORDER BY s, c, id, is_block DESC) AS block_no FROM marks
    )
    SELECT list, max(CASE WHEN is_block = 1 THEN concat_ws(' ', s, c, id) END) AS lo,
           max(size) FILTER (WHERE is_block = 1) AS size, (count(*) FILTER (WHERE is_block = 0))::integer AS n
    FROM numbered GROUP BY list, block_no
    HAVING max(size) FILTER (WHERE is_block = 1) IS DISTINCT FROM (count(*) FILTER (WHERE is_block = 0))::integer
       AND NOT (max(size) FILTER (WHERE is_block = 1) IS NULL AND count(*) FILTER (WHERE is_block = 0) = 0)
    ORDER BY list, block_no LIMIT 20`);
  return rows.map((row) =>
    row.lo === null ? `${row.list}: ${row.n} posts before its first block` : `${row.list} block ${row.lo}: size ${row.size}, holds ${row.n}`,
  );
}
