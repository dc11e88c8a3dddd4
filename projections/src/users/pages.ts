import type { Knex } from '@forum/platform';
import { applyBlockDeltas, blocksFollower, type PageBlocks } from '../page-blocks.ts';
import { USER_LISTS, type UserList } from './page-reads.ts';

/**
 * Any page of the admin's user list, in any of its sorts and both directions, in about the time of
 * the first: page anchors the users projection keeps, as the posts projection keeps its own (see
 * posts/pages.ts for the idea; a block is named by its lowest key and knows how many users it holds).
 *
 * Each sort is a list ordered by a text key and the id: the key is what the read orders by (the
 * name and the email lower-cased, the role, membership as 'false'/'true', the registration time as
 * fixed-width UTC text, or the id itself), so one comparison in the database's collation serves
 * the blocks and the reads, through an index on (key, id) for each list. A descending page is
 * the same rows read from the other end (the total is the sum of the blocks' sizes).
 *
 * Statement triggers keep the sizes exact on every write to `users`, split a block past twice
 * `block` users at its middle user and drop emptied ones; under a replay without its read indexes
 * (`forum.deferred`) they only mark the anchors out of date, and `rebuildUserBlocks` (`derived.rebuild`)
 * makes them afresh. Readers of out-of-date anchors page with OFFSET.
 */

/** The registration time as the text `registered_key` holds (orders as the time does; UTC, microseconds). */
export const REGISTERED_KEY = (time: string) => `to_char(${time} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;

/** Users per block when anchors are made afresh; a block splits past twice this. */
export const USER_BLOCK = 1000;

const lists = Object.entries(USER_LISTS) as [UserList, string][];

/** Each list's entries (list, k, id) of a relation of user rows. */
const entriesOf = (rows: string) => lists.map(([list, key]) => `SELECT '${list}'::text AS list, ${key} AS k, id FROM ${rows}`).join(' UNION ALL ');

/** The users' anchors: blocks keyed (k, id), ('', '') naming each list's first block. */
const ANCHORS: PageBlocks = { blocks: 'user_blocks', settings: 'user_page_settings', key: ['lo_k', 'lo_id'], first: "lo_id = ''" };

/** Adds each delta (list, k, id, d) to the size of the block holding its key. */
const applyDeltas = (deltas: string) => applyBlockDeltas(ANCHORS, ['k', 'id'], deltas);

/** One index per list on (key, id), for the blocks' splits and the pages' reads. */
export const USER_LIST_INDEXES = `
  CREATE INDEX IF NOT EXISTS users_name ON users (lower(name), id);
  CREATE INDEX IF NOT EXISTS users_email ON users (lower(email), id);
  CREATE INDEX IF NOT EXISTS users_role ON users (role, id);
  CREATE INDEX IF NOT EXISTS users_member ON users ((is_member::text), id);
  CREATE INDEX IF NOT EXISTS users_registered ON users (registered_key, id);`;

export const USER_BLOCKS_MIGRATION = `
  CREATE TABLE IF NOT EXISTS user_blocks (
    list text NOT NULL,
    lo_k text NOT NULL,
    lo_id text NOT NULL,
    size integer NOT NULL,
    PRIMARY KEY (list, lo_k, lo_id)
  );
  CREATE TABLE IF NOT EXISTS user_page_settings (one boolean PRIMARY KEY DEFAULT true CHECK (one), block integer NOT NULL, valid boolean NOT NULL);
  INSERT INTO user_page_settings (block, valid) VALUES (${USER_BLOCK}, true) ON CONFLICT DO NOTHING;
  -- each list's first block starts at the lowest key there is ('' sorts first in any collation)
  INSERT INTO user_blocks (list, lo_k, lo_id, size) VALUES ${lists.map(([list]) => `('${list}', '', '', 0)`).join(', ')} ON CONFLICT DO NOTHING;

  CREATE OR REPLACE FUNCTION user_blocks_split(p_list text, p_k text, p_id text, p_size integer) RETURNS void
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  DECLARE
    v_hi record;
    v_mid record;
    v_key text := CASE p_list ${lists.map(([list, key]) => `WHEN '${list}' THEN '${key}'`).join(' ')} END;
  BEGIN
    SELECT lo_k, lo_id INTO v_hi FROM user_blocks WHERE list = p_list AND (lo_k, lo_id) > (p_k, p_id) ORDER BY lo_k, lo_id LIMIT 1;
    -- the block's middle user: (size / 2) users of the block come before it
    EXECUTE format('SELECT %1$s AS k, id FROM users WHERE (%1$s, id) >= ($1, $2) AND ($3::text IS NULL OR (%1$s, id) < ($3, $4))
                    ORDER BY %1$s, id OFFSET $5 LIMIT 1', v_key)
      INTO v_mid USING p_k, p_id, v_hi.lo_k, v_hi.lo_id, p_size / 2;
    IF v_mid.id IS NULL THEN
      RAISE EXCEPTION 'user block % (%, %) holds fewer users than its size %', p_list, p_k, p_id, p_size;
    END IF;
    UPDATE user_blocks SET size = p_size / 2 WHERE (list, lo_k, lo_id) = (p_list, p_k, p_id);
    INSERT INTO user_blocks (list, lo_k, lo_id, size) VALUES (p_list, v_mid.k, v_mid.id, p_size - p_size / 2);
  END
  $fn$;

  ${blocksFollower(ANCHORS, {
    name: 'user_blocks_follow',
    triggers: 'user_blocks',
    table: 'users',
    split: 'user_blocks_split',
    onInsert: applyDeltas(`SELECT list, k, id, 1 AS d FROM (${entriesOf('new_rows')}) n`),
    onDelete: applyDeltas(`SELECT list, k, id, -1 AS d FROM (${entriesOf('old_rows')}) o`),
    // an update moves a user in the lists whose key it changed
    onUpdate: applyDeltas(`
        SELECT o.list, m.k, o.id, m.d FROM (${entriesOf('old_rows')}) o JOIN (${entriesOf('new_rows')}) n ON (n.list, n.id) = (o.list, o.id),
          LATERAL (VALUES (o.k, -1), (n.k, 1)) AS m(k, d)
        WHERE o.k IS DISTINCT FROM n.k`),
  })}
`;

/** Makes every list's anchors afresh from the users (blocks of `user_page_settings.block`), and marks them current. */
export async function rebuildUserBlocks(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`
    DELETE FROM user_blocks;
    WITH ranked AS (
      SELECT list, k, id, row_number() OVER (PARTITION BY list ORDER BY k, id) - 1 AS rn, count(*) OVER (PARTITION BY list) AS n
      FROM (${entriesOf('users')}) e
    )
    INSERT INTO user_blocks (list, lo_k, lo_id, size)
    SELECT list, CASE WHEN rn = 0 THEN '' ELSE k END, CASE WHEN rn = 0 THEN '' ELSE id END, least(p.block, n - rn)
    FROM ranked, user_page_settings p WHERE rn % p.block = 0;
    INSERT INTO user_blocks (list, lo_k, lo_id, size) VALUES ${lists.map(([list]) => `('${list}', '', '', 0)`).join(', ')} ON CONFLICT DO NOTHING;
    UPDATE user_page_settings SET valid = true;
  `);
}

/** What is wrong with the anchors (empty: nothing): a block whose size is not the number of users in its range. */
export async function userBlockProblems(trx: Knex.Transaction): Promise<string[]> {
  const { rows: settings } = await trx.raw<{ rows: { valid: boolean }[] }>('SELECT valid FROM user_page_settings');
  if (!settings[0]?.valid) return [];
  const { rows } = await trx.raw<{ rows: { list: string; lo: string | null; size: number | null; n: number }[] }>(`
    WITH marks AS (
      SELECT list, lo_k AS k, lo_id AS id, 1 AS is_block, size FROM user_blocks
      UNION ALL SELECT list, k, id, 0, 0 FROM (${entriesOf('users')}) e
    ),
    numbered AS (SELECT *, sum(is_block) OVER (PARTITION BY list ORDER BY k, id, is_block DESC) AS block_no FROM marks)
    SELECT list, max(CASE WHEN is_block = 1 THEN concat_ws(' ', k, id) END) AS lo,
           max(size) FILTER (WHERE is_block = 1) AS size, (count(*) FILTER (WHERE is_block = 0))::integer AS n
    FROM numbered GROUP BY list, block_no
    HAVING max(size) FILTER (WHERE is_block = 1) IS DISTINCT FROM (count(*) FILTER (WHERE is_block = 0))::integer
    ORDER BY list, block_no LIMIT 20`);
  const first = await trx.raw<{ rows: { list: string }[] }>(`SELECT list FROM user_blocks WHERE lo_k = '' AND lo_id = ''`);
  const missing = lists.filter(([list]) => !first.rows.some((row) => row.list === list));
  return [
    ...missing.map(([list]) => `${list}: no first block`),
    ...rows.map((row) =>
      row.lo === null ? `${row.list}: ${row.n} users before its first block` : `${row.list} block ${row.lo}: size ${row.size}, holds ${row.n}`,
    ),
  ];
}
