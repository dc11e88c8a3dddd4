import type { AnnouncementPublished, ProfileUpdated } from '@forum/contracts';
import type { RecordedEvent } from '@forum/command-service/eventstore';
import { byEventType, type Projection } from '../runner/projection.ts';

/** Announcements, newest first, with their author's current name and photo (as posts show them). */
export const announcementsProjection: Projection = {
  name: 'announcements',
  version: 1,
  exposes: { announcements: 'announcements', announcement_counters: 'counters' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS announcements (
        id uuid PRIMARY KEY,
        title text NOT NULL,
        description text NOT NULL,
        author_id text NOT NULL,
        author_name text NOT NULL,
        author_photo text NOT NULL,
        published_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS announcements_newest ON announcements (published_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS announcements_author ON announcements (author_id);
      CREATE TABLE IF NOT EXISTS counters (name text PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO counters (name, value) VALUES ('announcements', 0) ON CONFLICT DO NOTHING;
    `);
  },
  apply: byEventType({
    async AnnouncementPublished(trx, event: RecordedEvent) {
      const a = (event as RecordedEvent<'AnnouncementPublished', AnnouncementPublished['data']>).data;
      await trx.raw(
        `WITH inserted AS (
           INSERT INTO announcements (id, title, description, author_id, author_name, author_photo, published_at)
           VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING 1
         )
         UPDATE counters SET value = value + (SELECT count(*) FROM inserted) WHERE name = 'announcements'`,
        [a.announcementId, a.title, a.description, a.authorId, a.authorName, a.authorPhoto, a.publishedAt],
      );
    },
    async ProfileUpdated(trx, event: RecordedEvent) {
      const { userId, changes } = (event as RecordedEvent<'ProfileUpdated', ProfileUpdated['data']>).data;
      await trx.raw('UPDATE announcements SET author_name = coalesce(?, author_name), author_photo = coalesce(?, author_photo) WHERE author_id = ?', [
        changes.name ?? null,
        changes.photoURL ?? null,
        userId,
      ]);
    },
  }),
};
