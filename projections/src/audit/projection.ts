import { type AUDIT_TARGETS, AUDIT_TYPES, ERASED_VALUES, type AuditType } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { defineProjection, type ProjectedEvent } from '../runner/projection.ts';

/** What it records, and the events that name the people it shows. */
const AUDIT_EVENT_TYPES = [...AUDIT_TYPES, 'UserRegistered', 'ProfileUpdated'] as const;
type AuditEvent = ProjectedEvent<(typeof AUDIT_EVENT_TYPES)[number]>;

type TargetType = (typeof AUDIT_TARGETS)[number];
interface Entry extends Partial<Named> {
  position: string;
  at: string;
  actorId: string;
  type: AuditType;
  targetType: TargetType;
  targetId: string;
  summary: string;
}

/** Where a summary names a person: their id, and the name's place in it (in characters, from 1), so that their erasure can take it out. */
interface Named {
  namedUser: string;
  nameAt: number;
  nameLength: number;
}

const characters = (text: string) => [...text].length;
type Person = { name: string; email: string | null };

/** The user ids an event's summary names (before the batch is applied). */
function namedUsers(event: AuditEvent): string[] {
  switch (event.type) {
    case 'AdminRoleGranted':
      return [event.data.userId];
    case 'UserWarned':
      return [event.data.userId];
    case 'PostDeleted':
    case 'PostEdited':
    case 'CommentRemoved':
    case 'CommentEdited':
      return [event.data.authorId];
    case 'AccountDisabled':
    case 'AccountEnabled':
    case 'ModeratorRoleGranted':
    case 'ModeratorRoleRevoked':
    case 'MemberSuspended':
    case 'SuspensionLifted':
      return [event.data.userId];
    case 'PostHidden':
    case 'PostUnhidden':
    case 'CommentHidden':
    case 'CommentUnhidden':
      return [event.data.authorId];
    default:
      return [];
  }
}

/** The staff-action entry of an event, or null when the event is not an admin action. */
function entryOf(event: Exclude<AuditEvent, ProjectedEvent<'UserRegistered' | 'ProfileUpdated'>>, nameOf: (userId: string) => string): Entry | null {
  const base = { position: event.position.globalPosition.toString(), at: event.recordedAt.toISOString(), actorId: event.metadata.actorId };
  /** A summary that names a user: `before` their name `after`. */
  const naming = (before: string, userId: string, after = ''): Pick<Entry, 'summary'> & Named => {
    const name = nameOf(userId);
    return { summary: `${before}${name}${after}`, namedUser: userId, nameAt: characters(before) + 1, nameLength: characters(name) };
  };
  switch (event.type) {
    case 'AdminRoleGranted': {
      const grant = event.data;
      // ADMIN_EMAILS and the demo data are configuration, not a staff action
      if (grant.reason !== 'admin' && grant.reason !== 'operator') return null;
      return { ...base, type: 'AdminRoleGranted', targetType: 'user', targetId: grant.userId, ...naming('Made ', grant.userId, ' an admin') };
    }
    case 'TagCreated': {
      const tag = event.data;
      return { ...base, type: 'TagCreated', targetType: 'tag', targetId: tag.tagId, summary: `Created the tag #${tag.name}` };
    }
    case 'TagDeleted': {
      const tag = event.data;
      return { ...base, type: 'TagDeleted', targetType: 'tag', targetId: tag.tagId, summary: `Deleted the tag #${tag.name}` };
    }
    case 'AnnouncementPublished': {
      const a = event.data;
      return {
        ...base,
        type: 'AnnouncementPublished',
        targetType: 'announcement',
        targetId: a.announcementId,
        summary: `Published the announcement "${a.title}"`,
      };
    }
    case 'CommentRemoved': {
      const c = event.data;
      // an author removing their own comment (when they erase their account) is not a staff action
      if (c.removedBy === c.authorId) return null;
      return { ...base, type: 'CommentRemoved', targetType: 'comment', targetId: c.commentId, ...naming('Removed a comment by ', c.authorId) };
    }
    case 'UserWarned': {
      const w = event.data;
      return { ...base, type: 'UserWarned', targetType: 'user', targetId: w.userId, ...naming('Warned ', w.userId, `: ${w.reason}`) };
    }
    case 'PostDeleted': {
      const p = event.data;
      // an author deleting their own post is not a staff action
      if (p.deletedBy === p.authorId) return null;
      return { ...base, type: 'PostDeleted', targetType: 'post', targetId: p.postId, ...naming('Deleted a post by ', p.authorId) };
    }
    case 'PostEdited':
    case 'CommentEdited': {
      const edit = event.data;
      // an author editing their own post or comment is not a staff action
      if (edit.editorId === edit.authorId) return null;
      const [target, targetId] = event.type === 'PostEdited' ? (['post', event.data.postId] as const) : (['comment', event.data.commentId] as const);
      // staff give a reason (the command side requires it); the log shows it
      return {
        ...base,
        type: event.type,
        targetType: target,
        targetId,
        ...naming(`Edited a ${target} by `, edit.authorId, edit.reason ? `: ${edit.reason}` : ''),
      };
    }
    case 'ProjectionRebuildRequested': {
      const r = event.data;
      const build = `${r.projection} v${r.version} build ${r.build}`;
      return {
        ...base,
        type: 'ProjectionRebuildRequested',
        targetType: 'projection',
        targetId: r.projection,
        summary: r.resumed ? `Asked for a rebuild of ${r.projection}: joined ${build}, already under way` : `Started a rebuild of ${r.projection} (${build})`,
      };
    }
    case 'AccountErased': {
      const erased = event.data;
      // a member erasing their own account is not a staff action; the entry does not name them
      if (base.actorId === erased.userId) return null;
      const summary = erased.content === 'erased' ? 'Erased an account with its posts and comments' : 'Erased an account';
      return { ...base, type: 'AccountErased', targetType: 'user', targetId: erased.userId, summary };
    }
    case 'AccountDisabled':
    case 'AccountEnabled': {
      const { userId } = event.data;
      const verb = event.type === 'AccountDisabled' ? 'Disabled' : 'Enabled';
      return { ...base, type: event.type, targetType: 'user', targetId: userId, ...naming(`${verb} the account of `, userId) };
    }
    // moderation (issue #43): who did it (the actor) and why (the reason staff gave)
    case 'ModeratorRoleGranted':
    case 'ModeratorRoleRevoked': {
      const { userId } = event.data;
      const [before, after] = event.type === 'ModeratorRoleGranted' ? ['Made ', ' a moderator'] : ['Took the moderator role from ', ''];
      return { ...base, type: event.type, targetType: 'user', targetId: userId, ...naming(before, userId, after) };
    }
    case 'MemberSuspended': {
      const { userId, until, reason } = event.data;
      return {
        ...base,
        type: event.type,
        targetType: 'user',
        targetId: userId,
        ...naming('Suspended ', userId, ` ${until ? `until ${until}` : 'until lifted'}: ${reason}`),
      };
    }
    case 'SuspensionLifted':
      return { ...base, type: event.type, targetType: 'user', targetId: event.data.userId, ...naming('Lifted the suspension of ', event.data.userId) };
    case 'ReportsDismissed': {
      const { item } = event.data;
      return { ...base, type: event.type, targetType: item.kind, targetId: item.id, summary: `Dismissed the reports of a ${item.kind}` };
    }
    case 'PostHidden':
    case 'PostUnhidden':
    case 'CommentHidden':
    case 'CommentUnhidden': {
      const [target, targetId] = 'commentId' in event.data ? (['comment', event.data.commentId] as const) : (['post', event.data.postId] as const);
      const why = event.type === 'PostHidden' || event.type === 'CommentHidden' ? `: ${event.data.reason}` : '';
      const verb = why ? 'Hid' : 'Showed again';
      return { ...base, type: event.type, targetType: target, targetId, ...naming(`${verb} a ${target} by `, event.data.authorId, why) };
    }
    case 'PostLocked':
    case 'PostUnlocked':
    case 'PostPinned':
    case 'PostUnpinned': {
      const verb = { PostLocked: 'Locked', PostUnlocked: 'Unlocked', PostPinned: 'Pinned', PostUnpinned: 'Unpinned' }[event.type];
      const why = event.type === 'PostLocked' && event.data.reason ? `: ${event.data.reason}` : '';
      return { ...base, type: event.type, targetType: 'post', targetId: event.data.postId, summary: `${verb} a post${why}` };
    }
    default:
      return null;
  }
}

/**
 * The staff action log: admin actions from the events, with the acting admin
 * from each event's metadata. It keeps its own small record of people (name,
 * email) so that summaries name users as they were called at the time, the
 * actor filter can take an email, and a rebuild needs no other read model.
 * Totals per actor, per type and per both are counter rows.
 *
 * An erased member's record is 'Deleted user' with no email, and every summary that named
 * them says 'Deleted user' instead (each entry keeps where its summary names whom).
 */
export const auditProjection = defineProjection({
  name: 'audit',
  // what each version changed: docs/projections-versions.md
  version: 5,
  types: AUDIT_EVENT_TYPES,
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
        summary text NOT NULL,
        -- the user the summary names, and where (characters, from 1): their erasure takes the name out
        named_user text,
        name_at integer,
        name_length integer
      );
      CREATE INDEX IF NOT EXISTS entries_named_user ON entries (named_user) WHERE named_user IS NOT NULL;
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
    // names as they stand before the batch, then followed through it in log order
    const wanted = [...new Set(events.flatMap(namedUsers))];
    const names = new Map<string, string>();
    if (wanted.length > 0) {
      const { rows } = await trx.raw<{ rows: { id: string; name: string }[] }>('SELECT id, name FROM people WHERE id = ANY(?)', [wanted]);
      for (const row of rows) names.set(row.id, row.name);
    }
    const people = new Map<string, Person>();
    const entries: Entry[] = [];
    const nameOf = (userId: string) => names.get(userId) ?? `user ${userId}`;
    for (const event of events) {
      if (event.type === 'UserRegistered') {
        const user = event.data;
        names.set(user.userId, user.name);
        people.set(user.userId, { name: user.name, email: user.email });
      } else if (event.type === 'ProfileUpdated') {
        // the audit log keeps names only: a photo-only update changes nothing here
        const { userId, changes } = event.data;
        if (changes.name !== undefined) {
          names.set(userId, changes.name);
          people.set(userId, { name: changes.name, email: people.get(userId)?.email ?? null });
        }
      } else {
        const entry = entryOf(event, nameOf);
        if (entry) entries.push(entry);
        if (event.type === 'AccountErased') {
          // what came before it is written, then it takes the name out of all of it
          const { userId } = event.data;
          await writeAudit(trx, people, entries);
          people.clear();
          entries.length = 0;
          await erasePerson(trx, userId);
          names.set(userId, ERASED_VALUES.name);
        }
      }
    }
    await writeAudit(trx, people, entries);
  },
});

/** A segment's people, then its entries with the counters they move. */
async function writeAudit(trx: Knex.Transaction, people: ReadonlyMap<string, Person>, entries: readonly Entry[]) {
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
           position bigint, at timestamptz, "actorId" text, type text, "targetType" text, "targetId" text, summary text,
           "namedUser" text, "nameAt" integer, "nameLength" integer)
       ),
       inserted AS (
         INSERT INTO entries (global_position, at, actor_id, type, target_type, target_id, summary, named_user, name_at, name_length)
         SELECT position, at, "actorId", type, "targetType", "targetId", summary, "namedUser", "nameAt", "nameLength" FROM input
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
}

/**
 * An erased member: their record is 'Deleted user' with no email, and the summaries that named
 * them say 'Deleted user' where they said their name (what a replay of their events writes).
 */
async function erasePerson(trx: Knex.Transaction, userId: string) {
  const { name, email } = ERASED_VALUES;
  await trx.raw(
    `WITH person AS (UPDATE people SET name = ?, email = ? WHERE id = ?)
     UPDATE entries SET summary = overlay(summary PLACING ? FROM name_at FOR name_length), name_length = ? WHERE named_user = ?`,
    [name, email, userId, name, characters(name), userId],
  );
}
