/**
 * What the posts' and the comments' read models share about edits (PostEdited, CommentEdited):
 * a table of revisions beside the content's own, and the statement pieces that write them, the
 * same for a live batch (rows from a jsonb parameter) and a staged replay (rows from the log).
 *
 * Each edit names the visible revision it makes or folds into (`revision`, 1 being the content as
 * created). The content's row reads as its latest edit, with `edited_at` (the time of its latest
 * visible revision after the first: null while it has only the first) and `revision_count`.
 *
 * A revision keeps what its last fold said (fields, editor, reason) and, from the second on, that
 * fold's time: `edited_at` tells when its text last changed. Content never edited beyond its first
 * revision has no revision rows (its own row is revision 1). When the second revision comes, the
 * first is written from the row as it stands then (the content as created, or as folded into it),
 * at the content's creation time and by its author: all a row keeps, so live batches of any size
 * and a staged replay write the same revision.
 */
export interface Revisable {
  /** The content's table: id, created_at, author_id, the fields, edited_at, revision_count. */
  readonly table: string;
  /** Its revisions' table. */
  readonly revisions: string;
  /** The revisions' column naming the content. */
  readonly key: string;
  /** The fields a revision carries, each with its SQL type (the content's table has the same columns). */
  readonly fields: Readonly<Record<string, string>>;
}

const fieldsOf = (revisable: Revisable) => Object.keys(revisable.fields);

/** The revisions' table (for `migrate`). */
export function revisionsTable(revisable: Revisable): string {
  const fields = Object.entries(revisable.fields).map(([field, type]) => `${field} ${type} NOT NULL`);
  return `CREATE TABLE IF NOT EXISTS ${revisable.revisions} (
    ${revisable.key} uuid NOT NULL,
    number integer NOT NULL,
    edited_at timestamptz NOT NULL,
    editor_id text NOT NULL,
    reason text,
    ${fields.join(',\n    ')},
    PRIMARY KEY (${revisable.key}, number)
  )`;
}

/** The content's columns that follow its edits (for its table's CREATE). */
export const EDITED_COLUMNS = `
      -- the time of its latest visible revision after the first (null while it has only the first)
      edited_at timestamptz,
      revision_count integer NOT NULL DEFAULT 1`;

/**
 * The columns of an `input` relation of edits, in a live batch's jsonb rows: the content's id,
 * the edit's fields, and its log position.
 */
export function editColumns(revisable: Revisable): string {
  const fields = Object.entries(revisable.fields).map(([field, type]) => `${field} ${type}`);
  return `id uuid, "editorId" text, reason text, ${fields.join(', ')}, revision integer, "editedAt" timestamptz, pos bigint`;
}

/** The same columns selected from the log's events of `type` (`e`: SqlLog.events' relation, its `pos`, `type` and `data`). */
export function editsInLog(revisable: Revisable, type: string, idField: string): string {
  const fields = Object.entries(revisable.fields).map(([field, type]) =>
    type === 'text[]'
      ? `ARRAY(SELECT t FROM jsonb_array_elements_text(data->'${field}') WITH ORDINALITY AS x(t, o) ORDER BY o) AS ${field}`
      : `data->>'${field}' AS ${field}`,
  );
  return `SELECT (data->>'${idField}')::uuid AS id, data->>'editorId' AS "editorId", data->>'reason' AS reason, ${fields.join(', ')},
            (data->>'revision')::integer AS revision, (data->>'editedAt')::timestamptz AS "editedAt", pos
     FROM ? e WHERE type = '${type}'`;
}

/**
 * The statement's common table expressions after `input` (the edits): `latest`, each content's
 * last edit (what its row reads as, through `editedRow`); and the revisions written: each
 * (content, revision)'s last fold, and the first revision of content getting its second. Edits
 * of content that is gone change nothing.
 */
export function revisionsWritten(revisable: Revisable): string {
  const { table, revisions, key } = revisable;
  const fields = fieldsOf(revisable);
  const upsert = (columns: readonly string[]) => `${columns.map((column) => `${column} = excluded.${column}`).join(', ')}`;
  return `
  folds AS (SELECT DISTINCT ON (id, revision) * FROM input ORDER BY id, revision, pos DESC),
  latest AS (SELECT DISTINCT ON (id) * FROM input ORDER BY id, pos DESC),
  firsts AS (
    INSERT INTO ${revisions} (${key}, number, edited_at, editor_id, reason, ${fields.join(', ')})
    SELECT c.id, 1, c.created_at, c.author_id, NULL, ${fields.map((field) => `coalesce(f.${field}, c.${field})`).join(', ')}
    FROM ${table} c JOIN (SELECT DISTINCT id FROM input WHERE revision > 1) s ON s.id = c.id
    LEFT JOIN folds f ON f.id = c.id AND f.revision = 1
    ON CONFLICT DO NOTHING
  ),
  later AS (
    INSERT INTO ${revisions} (${key}, number, edited_at, editor_id, reason, ${fields.join(', ')})
    SELECT f.id, f.revision, f."editedAt", f."editorId", f.reason, ${fields.map((field) => `f.${field}`).join(', ')}
    FROM folds f WHERE f.revision > 1 AND EXISTS (SELECT 1 FROM ${table} c WHERE c.id = f.id)
    ON CONFLICT (${key}, number) DO UPDATE SET ${upsert(['edited_at', 'editor_id', 'reason', ...fields])}
  )`;
}

/** The SET list that makes a content's row (`c`) read as its latest edit (`latest` as `l`), beside any the caller adds. */
export function editedRow(revisable: Revisable): string {
  return [
    ...fieldsOf(revisable).map((field) => `${field} = l.${field}`),
    `edited_at = CASE WHEN l.revision > 1 THEN l."editedAt" END`,
    'revision_count = l.revision',
  ].join(', ');
}

/** Rows of an edit event's data for `editColumns` (`id`: the content's id from the data). */
export function editRow<Data extends { editorId: string; reason?: string | undefined; revision: number; editedAt: string }>(
  id: string,
  data: Data,
  fields: readonly (keyof Data & string)[],
  pos: bigint,
): Record<string, unknown> {
  return {
    id,
    editorId: data.editorId,
    reason: data.reason ?? null,
    ...Object.fromEntries(fields.map((field) => [field, data[field]])),
    revision: data.revision,
    editedAt: data.editedAt,
    pos: pos.toString(),
  };
}

/** The revisions of the content that `gone` (a relation of ids) selects leave with it. */
export function revisionsGone(revisable: Revisable, gone: string): string {
  return `DELETE FROM ${revisable.revisions} r USING ${gone} g WHERE r.${revisable.key} = g.id`;
}
