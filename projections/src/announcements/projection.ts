import { ERASED_VALUES, type AnnouncementPublished } from '@forum/contracts';
import { AUTHOR, carryProfileChange, type ProfileChanges } from '../profile-changes.ts';
import { defineProjection } from '../runner/projection.ts';

/**
 * Announcements, newest first, with their author's current name and photo (as posts show them).
 * An erased author is 'Deleted user' with no photo, as a last change of both; the announcement's
 * text is the forum's and stays.
 */
export const announcementsProjection = defineProjection({
  name: 'announcements',
  version: 1,
  types: ['AnnouncementPublished', 'ProfileUpdated', 'AccountErased'],
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
  async apply(trx, events) {
    // Two statements a batch: authors' new names and photos on the announcements that were there
    // before the batch, then the batch's announcements carrying the changes that came after them.
    const published = new Map<string, AnnouncementPublished['data']>();
    const changes = new Map<string, ProfileChanges>();
    for (const event of events) {
      if (event.type === 'AnnouncementPublished') {
        const a = event.data;
        if (!published.has(a.announcementId)) published.set(a.announcementId, { ...a });
      } else {
        // only the fields the update changed (a v1 event arrives upcast with both)
        const { userId, changes: changed } =
          event.type === 'ProfileUpdated' ? event.data : { userId: event.data.userId, changes: { name: ERASED_VALUES.name, photoURL: ERASED_VALUES.photo } };
        changes.set(userId, { ...changes.get(userId), ...changed });
        carryProfileChange(published.values(), AUTHOR, userId, changed);
      }
    }
    if (changes.size > 0) {
      await trx.raw(
        `UPDATE announcements a SET author_name = coalesce(c.name, a.author_name), author_photo = coalesce(c."photoURL", a.author_photo)
         FROM jsonb_to_recordset(?::jsonb) AS c("userId" text, name text, "photoURL" text)
         WHERE a.author_id = c."userId" AND a.author_id = ANY (?::text[])`,
        [JSON.stringify([...changes].map(([userId, changed]) => ({ userId, ...changed }))), [...changes.keys()]],
      );
    }
    if (published.size > 0) {
      await trx.raw(
        `WITH inserted AS (
           INSERT INTO announcements (id, title, description, author_id, author_name, author_photo, published_at)
           SELECT "announcementId", title, description, "authorId", "authorName", "authorPhoto", "publishedAt"
           FROM jsonb_to_recordset(?::jsonb) AS x(
             "announcementId" uuid, title text, description text, "authorId" text, "authorName" text, "authorPhoto" text, "publishedAt" timestamptz)
           ON CONFLICT (id) DO NOTHING RETURNING 1
         )
         UPDATE counters SET value = value + (SELECT count(*) FROM inserted) WHERE name = 'announcements'`,
        [JSON.stringify([...published.values()])],
      );
    }
  },
});
