import type { TagCreated, TagDeleted } from '@forum/contracts';
import type { RecordedEvent } from '@forum/command-service/eventstore';
import { byEventType, type Projection } from '../runner/projection.ts';

/**
 * The tag list: the public array of names and the admin list with ids. A
 * deleted tag leaves it (posts keep their tag text), which frees its name.
 */
export const tagsProjection: Projection = {
  name: 'tags',
  version: 1,
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
  apply: byEventType({
    async TagCreated(trx, event: RecordedEvent) {
      const tag = (event as RecordedEvent<'TagCreated', TagCreated['data']>).data;
      await trx.raw(`INSERT INTO tags (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, [tag.tagId, tag.name, tag.createdAt]);
    },
    async TagDeleted(trx, event: RecordedEvent) {
      const tag = (event as RecordedEvent<'TagDeleted', TagDeleted['data']>).data;
      await trx.raw('DELETE FROM tags WHERE id = ?', [tag.tagId]);
    },
  }),
};
