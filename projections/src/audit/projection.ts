import {
  AUDIT_TARGETS,
  AUDIT_TYPES,
  type AdminRoleGranted,
  type AnnouncementPublished,
  type AuditType,
  type CommentRemoved,
  type PostDeleted,
  type ProjectionRebuildRequested,
  type ProfileUpdated,
  type TagCreated,
  type TagDeleted,
  type UserRegistered,
  type UserWarned,
} from '@forum/contracts';
import type { RecordedEvent } from '@forum/command-service/eventstore';
import type { Projection } from '../runner/projection.ts';

type TargetType = (typeof AUDIT_TARGETS)[number];
interface Entry {
  position: string;
  at: string;
  actorId: string;
  type: AuditType;
  targetType: TargetType;
  targetId: string;
  summary: string;
}
type Person = { name: string; email: string | null };

/** The user ids an event's summary names (before the batch is applied). */
function namedUsers(event: RecordedEvent): string[] {
  switch (event.type) {
    case 'AdminRoleGranted':
      return [(event.data as AdminRoleGranted['data']).userId];
    case 'UserWarned':
      return [(event.data as UserWarned['data']).userId];
    case 'PostDeleted':
      return [(event.data as PostDeleted['data']).authorId];
    case 'CommentRemoved':
      return [(event.data as CommentRemoved['data']).authorId];
    default:
      return [];
  }
}

/** The staff-action entry of an event, or null when the event is not an admin action. */
function entryOf(event: RecordedEvent, nameOf: (userId: string) => string): Entry | null {
  const base = { position: event.position.globalPosition.toString(), at: event.recordedAt.toISOString(), actorId: event.metadata.actorId };
  switch (event.type) {
    case 'AdminRoleGranted': {
      const grant = event.data as AdminRoleGranted['data'];
      // ADMIN_EMAILS and the demo data are configuration, not a staff action
      if (grant.reason !== 'admin' && grant.reason !== 'operator') return null;
      return { ...base, type: 'AdminRoleGranted', targetType: 'user', targetId: grant.userId, summary: `Made ${nameOf(grant.userId)} an admin` };
    }
    case 'TagCreated': {
      const tag = event.data as TagCreated['data'];
      return { ...base, type: 'TagCreated', targetType: 'tag', targetId: tag.tagId, summary: `Created the tag #${tag.name}` };
    }
    case 'TagDeleted': {
      const tag = event.data as TagDeleted['data'];
      return { ...base, type: 'TagDeleted', targetType: 'tag', targetId: tag.tagId, summary: `Deleted the tag #${tag.name}` };
    }
    case 'AnnouncementPublished': {
      const a = event.data as AnnouncementPublished['data'];
      return { ...base, type: 'AnnouncementPublished', targetType: 'announcement', targetId: a.announcementId, summary: `Published the announcement "${a.title}"` };
    }
    case 'CommentRemoved': {
      const c = event.data as CommentRemoved['data'];
      return { ...base, type: 'CommentRemoved', targetType: 'comment', targetId: c.commentId, summary: `Removed a comment by ${nameOf(c.authorId)}` };
    }
    case 'UserWarned': {
      const w = event.data as UserWarned['data'];
      return { ...base, type: 'UserWarned', targetType: 'user', targetId: w.userId, summary: `Warned ${nameOf(w.userId)}: ${w.reason}` };
    }
    case 'PostDeleted': {
      const p = event.data as PostDeleted['data'];
      // an author deleting their own post is not a staff action
      if (p.deletedBy === p.authorId) return null;
      return { ...base, type: 'PostDeleted', targetType: 'post', targetId: p.postId, summary: `Deleted a post by ${nameOf(p.authorId)}` };
    }
    case 'ProjectionRebuildRequested': {
      const r = event.data as ProjectionRebuildRequested['data'];
      const build = `${r.projection} v${r.version} build ${r.build}`;
      return {
        ...base,
        type: 'ProjectionRebuildRequested',
        targetType: 'projection',
        targetId: r.projection,
        summary: r.resumed ? `Asked for a rebuild of ${r.projection}: joined ${build}, already under way` : `Started a rebuild of ${r.projection} (${build})`,
      };
    }
    default:
      return null;
  }
}

const AUDITED = new Set<string>(AUDIT_TYPES);

/**
 * The staff action log: admin actions from the events, with the acting admin
 * from each event's metadata. It keeps its own small record of people (name,
 * email) so that summaries name users as they were called at the time, the
 * actor filter can take an email, and a rebuild needs no other read model.
 * Totals per actor, per type and per both are counter rows.
 */
export const auditProjection: Projection = {
  name: 'audit',
  // 2: projection rebuilds are staff actions
  version: 2,
  // what it records, and the events that name the people it shows
  types: [...AUDIT_TYPES, 'UserRegistered', 'ProfileUpdated'],
  exposes: { audit_entries: 'entries', audit_people: 'people', audit_counters: 'counters' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS entries (
        global_position bigint PRIMARY KEY,
        at timestamptz NOT NULL,
        actor_id text NOT NULL,
        type text NOT NULL,
        target_type text NOT NULL,
        target_id text NOT NULL,
        summary text NOT NULL
      );
      CREATE INDEX IF NOT EXISTS entries_newest ON entries (at DESC, global_position DESC);
      CREATE INDEX IF NOT EXISTS entries_actor ON entries (actor_id, at DESC, global_position DESC);
      CREATE INDEX IF NOT EXISTS entries_type ON entries (type, at DESC, global_position DESC);
      CREATE TABLE IF NOT EXISTS people (id text PRIMARY KEY, name text NOT NULL, email text NOT NULL);
      CREATE INDEX IF NOT EXISTS people_email ON people (lower(email));
      -- '' stands for "any": ('', '') is the whole log
      CREATE TABLE IF NOT EXISTS counters (actor_id text NOT NULL, type text NOT NULL, value bigint NOT NULL, PRIMARY KEY (actor_id, type));
    `);
  },
  async apply(trx, events) {
    const relevant = events.filter((e) => AUDITED.has(e.type) || e.type === 'UserRegistered' || e.type === 'ProfileUpdated');
    if (relevant.length === 0) return;

    // names as they stand before the batch, then followed through it in log order
    const wanted = [...new Set(relevant.flatMap(namedUsers))];
    const names = new Map<string, string>();
    if (wanted.length > 0) {
      const { rows } = await trx.raw<{ rows: { id: string; name: string }[] }>('SELECT id, name FROM people WHERE id = ANY(?)', [wanted]);
      for (const row of rows) names.set(row.id, row.name);
    }
    const people = new Map<string, Person>();
    const entries: Entry[] = [];
    const nameOf = (userId: string) => names.get(userId) ?? `user ${userId}`;
    for (const event of relevant) {
      if (event.type === 'UserRegistered') {
        const user = event.data as UserRegistered['data'];
        names.set(user.userId, user.name);
        people.set(user.userId, { name: user.name, email: user.email });
      } else if (event.type === 'ProfileUpdated') {
        // the audit log keeps names only: a photo-only update changes nothing here
        const { userId, changes } = event.data as ProfileUpdated['data'];
        if (changes.name !== undefined) {
          names.set(userId, changes.name);
          people.set(userId, { name: changes.name, email: people.get(userId)?.email ?? null });
        }
      } else {
        const entry = entryOf(event, nameOf);
        if (entry) entries.push(entry);
      }
    }

    if (people.size > 0) {
      await trx.raw(
        `INSERT INTO people (id, name, email)
         SELECT id, name, coalesce(email, '') FROM jsonb_to_recordset(?::jsonb) AS x(id text, name text, email text)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email = CASE WHEN EXCLUDED.email = '' THEN people.email ELSE EXCLUDED.email END`,
        [JSON.stringify([...people].map(([id, person]) => ({ id, ...person })))],
      );
    }
    if (entries.length > 0) {
      await trx.raw(
        `WITH input AS (
           SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(
             position bigint, at timestamptz, "actorId" text, type text, "targetType" text, "targetId" text, summary text)
         ),
         inserted AS (
           INSERT INTO entries (global_position, at, actor_id, type, target_type, target_id, summary)
           SELECT position, at, "actorId", type, "targetType", "targetId", summary FROM input
           ON CONFLICT (global_position) DO NOTHING
           RETURNING actor_id, type
         ),
         keys AS (
           SELECT k.actor_id, k.type FROM inserted i,
             LATERAL (VALUES ('', ''), ('', i.type), (i.actor_id, ''), (i.actor_id, i.type)) AS k(actor_id, type)
         )
         INSERT INTO counters (actor_id, type, value)
         SELECT actor_id, type, count(*) FROM keys GROUP BY actor_id, type
         ON CONFLICT (actor_id, type) DO UPDATE SET value = counters.value + EXCLUDED.value`,
        [JSON.stringify(entries)],
      );
    }
  },
};
