import { defineProjection, type ProjectedEvent } from '../runner/projection.ts';

/**
 * The tag list: the public array of names and the admin list with ids. A
 * deleted tag leaves it (posts keep their tag text), which frees its name.
 */
export const tagsProjection = defineProjection({
  name: 'tags',
  version: 1,
  types: ['TagCreated', 'TagDeleted'],
  exposes: { tags: 'tags' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS tags (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS tags_name ON tags (lower(name));
    `);
  },
  async apply(trx, events) {
    // Runs of creations and of deletions, each one statement, in log order: a name freed by a
    // deletion may be taken by a later creation, so the two kinds do not commute. Within a run
    // of creations the rows go in log order, and a name or id already taken keeps the first.
    let created: ProjectedEvent<'TagCreated'>[] = [];
    let deleted: ProjectedEvent<'TagDeleted'>[] = [];
    const flush = async () => {
      if (created.length > 0) {
        const rows = created.map((event) => event.data);
        created = [];
        await trx.raw(
          `INSERT INTO tags (id, name, created_at)
           SELECT "tagId", name, "createdAt"
           FROM ROWS FROM (jsonb_to_recordset(?::jsonb) AS ("tagId" uuid, name text, "createdAt" timestamptz)) WITH ORDINALITY AS x("tagId", name, "createdAt", ord)
           ORDER BY ord
           ON CONFLICT DO NOTHING`,
          [JSON.stringify(rows)],
        );
      }
      if (deleted.length > 0) {
        const ids = deleted.map((event) => event.data.tagId);
        deleted = [];
        await trx.raw('DELETE FROM tags WHERE id = ANY (?::uuid[])', [ids]);
      }
    };
    for (const event of events) {
      if (event.type === 'TagCreated') {
        if (deleted.length > 0) await flush();
        created.push(event);
      } else {
        if (created.length > 0) await flush();
        deleted.push(event);
      }
    }
    await flush();
  },
});
