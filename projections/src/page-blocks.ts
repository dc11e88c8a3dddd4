/**
 * What the page anchors of the posts' lists (posts/pages.ts, where the idea is told) and of the
 * admin's user list (users/pages.ts) share: a table of blocks, each named by its list and its
 * lowest key and knowing its size, kept by a statement-level trigger function on the table whose
 * rows the lists order.
 */
export interface PageBlocks {
  /** The table of blocks: (list, <key>, size). */
  readonly blocks: string;
  /** Its one-row settings: (block, valid). */
  readonly settings: string;
  /** The blocks' key columns, in the lists' order. */
  readonly key: readonly string[];
  /** True of a list's first block (the lowest key there is), which stays when it empties. */
  readonly first: string;
}

/** Adds each delta (list, `entryKey`…, d) of the `deltas` statement to the size of the block holding its key. */
export function applyBlockDeltas(anchors: PageBlocks, entryKey: readonly string[], deltas: string): string {
  const { blocks, key } = anchors;
  const columns = key.join(', ');
  return `
  WITH deltas AS (${deltas})
  UPDATE ${blocks} b SET size = b.size + x.d
  FROM (
    SELECT l.list, ${key.map((column) => `l.${column}`).join(', ')}, sum(e.d)::integer AS d
    FROM deltas e CROSS JOIN LATERAL (
      SELECT list, ${columns} FROM ${blocks}
      WHERE list = e.list AND (${columns}) <= (${entryKey.map((column) => `e.${column}`).join(', ')})
      ORDER BY ${key.map((column) => `${column} DESC`).join(', ')} LIMIT 1
    ) l
    GROUP BY ${key.map((_, i) => i + 1).join(', ')}, ${key.length + 1}
  ) x
  WHERE (b.list, ${key.map((column) => `b.${column}`).join(', ')}) = (x.list, ${key.map((column) => `x.${column}`).join(', ')})`;
}

/**
 * The trigger function `name` that keeps the blocks after each statement on `table`, and its
 * insert, delete and update triggers (`<triggers>_insert`…). `before` runs first, whatever the anchors' state; then,
 * unless the anchors are out of date (or a replay defers them: `forum.deferred`, which marks them
 * so), the statement's deltas (`onInsert`, `onDelete`, `onUpdate`, over the transition tables
 * new_rows and old_rows), then, when they changed the size of some block (each ends with the
 * statement that does), the splits (`split`: a function of the block's list, key and size) of
 * blocks past twice the block size and the drop of emptied blocks.
 */
export function blocksFollower(
  anchors: PageBlocks,
  trigger: { name: string; triggers: string; table: string; split: string; before?: string; onInsert: string; onDelete: string; onUpdate: string },
): string {
  const { blocks, settings, key, first } = anchors;
  const { name, table, triggers } = trigger;
  return `
  CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  DECLARE
    v_settings record;
    v_block record;
    v_resized integer;
  BEGIN
    ${trigger.before ?? ''}
    -- read first: anchors already out of date take no lock (a replay's settle steps run side by side)
    SELECT block, valid INTO v_settings FROM ${settings};
    IF NOT v_settings.valid THEN RETURN NULL; END IF;
    IF current_setting('forum.deferred', true) = 'on' THEN
      UPDATE ${settings} SET valid = false;
      RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
      ${trigger.onInsert};
      GET DIAGNOSTICS v_resized = ROW_COUNT;
    ELSIF TG_OP = 'DELETE' THEN
      ${trigger.onDelete};
      GET DIAGNOSTICS v_resized = ROW_COUNT;
    ELSE
      ${trigger.onUpdate};
      GET DIAGNOSTICS v_resized = ROW_COUNT;
    END IF;
    -- no block changed size (an update of no key, such as a post's comment count): none to split or drop
    IF v_resized = 0 THEN RETURN NULL; END IF;
    FOR v_block IN SELECT * FROM ${blocks} WHERE size > 2 * v_settings.block LOOP
      PERFORM ${trigger.split}(v_block.list, ${key.map((column) => `v_block.${column}`).join(', ')}, v_block.size);
    END LOOP;
    DELETE FROM ${blocks} WHERE size = 0 AND NOT (${first});
    RETURN NULL;
  END
  $fn$;

  DROP TRIGGER IF EXISTS ${triggers}_insert ON ${table};
  DROP TRIGGER IF EXISTS ${triggers}_delete ON ${table};
  DROP TRIGGER IF EXISTS ${triggers}_update ON ${table};
  CREATE TRIGGER ${triggers}_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}();
  CREATE TRIGGER ${triggers}_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}();
  CREATE TRIGGER ${triggers}_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}();`;
}
