import { ACCOUNT_DENIALS, HANDLE_PATTERN, type Role } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { USERS_PROJECTION } from '../read-model.ts';
import { defineProjection } from '../runner/projection.ts';
import { REGISTERED_KEY, USER_BLOCKS_MIGRATION, USER_LIST_INDEXES, rebuildUserBlocks, userBlockProblems } from './pages.ts';

/**
 * The forum's users: profiles, roles and membership, and the total for the admin stats; and the
 * accounts whose tokens are refused (`account_denials`: disabled or erased),
 * each member's handle (unique ignoring case: the command side claims it; see docs/notifications.md#handles),
 * which the query side reads with the caller's own row. A role is `user`, `moderator` or `admin`
 * (an admin stays one); a suspension is its reason and end (null: until lifted), kept until lifted or
 * replaced: whether it is still in force is the reader's to decide against its clock (docs/moderation.md). An erased user's row is deleted (their
 * profile answers 404 and they leave the admin's list and counts); their denial stays.
 */
export const usersProjection = defineProjection({
  name: USERS_PROJECTION,
  // what each version changed: docs/projections-versions.md
  version: 4,
  types: [
    'UserRegistered',
    'ProfileUpdated',
    'HandleChanged',
    'AdminRoleGranted',
    'ModeratorRoleGranted',
    'ModeratorRoleRevoked',
    'MemberSuspended',
    'SuspensionLifted',
    'MembershipPurchased',
    'AccountDisabled',
    'AccountEnabled',
    'AccountErased',
  ],
  exposes: {
    users: 'users',
    user_counters: 'counters',
    user_page_blocks: 'user_blocks',
    user_page_settings: 'user_page_settings',
    account_denials: 'denials',
  },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS users (
        id text PRIMARY KEY,
        email text NOT NULL,
        name text NOT NULL,
        photo_url text NOT NULL,
        role text NOT NULL DEFAULT 'user',
        is_member boolean NOT NULL DEFAULT false,
        registered_at timestamptz NOT NULL,
        -- the admin list's key for 'registeredAt' (see pages.ts)
        registered_key text NOT NULL,
        -- the name @mentions use; null until the member has one
        handle text,
        -- the last suspension, until lifted: its reason and end (null: until lifted); in force while its end is ahead
        suspended boolean NOT NULL DEFAULT false,
        suspension_reason text,
        suspended_until timestamptz
      );
      -- a handle by its folded form, and those starting with a prefix (the editor's @ autocomplete)
      CREATE UNIQUE INDEX IF NOT EXISTS users_handle ON users ((lower(handle) COLLATE "C")) WHERE handle IS NOT NULL;
      -- the admin's user list, in each of its sorts (and a user by email)
      ${USER_LIST_INDEXES}
      CREATE TABLE IF NOT EXISTS counters (name text PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO counters (name, value) VALUES ('users', 0) ON CONFLICT DO NOTHING;
      -- accounts whose tokens are refused: 'disabled' (until enabled again) or 'erased' (for good)
      CREATE TABLE IF NOT EXISTS denials (user_id text PRIMARY KEY, reason text NOT NULL CHECK (reason IN (${ACCOUNT_DENIALS.map((reason) => `'${reason}'`).join(', ')})));
    `);
    await trx.raw(USER_BLOCKS_MIGRATION);
    await searchIndexes(trx);
  },
  derived: { views: ['user_page_blocks', 'user_page_settings'], problems: userBlockProblems, rebuild: rebuildUserBlocks },
  async apply(trx, events) {
    // A batch is folded and written in segments (writeUsers); an erasure ends one, so it is written
    // after what came before it and before what comes after. An access change writes only the
    // denials, which no segment writes: it needs no end of one.
    const registrations = new Map<string, UserRow>();
    const existing = new Map<string, Change>();
    const flush = async () => {
      await writeUsers(trx, registrations, existing);
      registrations.clear();
      existing.clear();
    };
    for (const event of events) {
      switch (event.type) {
        case 'AccountDisabled':
        case 'AccountEnabled': {
          const { userId } = event.data;
          if (event.type === 'AccountDisabled') {
            await trx.raw(`INSERT INTO denials (user_id, reason) VALUES (?, 'disabled') ON CONFLICT (user_id) DO NOTHING`, [userId]);
          } else {
            await trx.raw(`DELETE FROM denials WHERE user_id = ? AND reason = 'disabled'`, [userId]);
          }
          break;
        }
        case 'AccountErased': {
          const { userId } = event.data;
          await flush();
          await trx.raw(
            `WITH gone AS (DELETE FROM users WHERE id = ? RETURNING 1),
             denied AS (INSERT INTO denials (user_id, reason) VALUES (?, 'erased') ON CONFLICT (user_id) DO UPDATE SET reason = 'erased')
             UPDATE counters SET value = value - (SELECT count(*) FROM gone) WHERE name = 'users'`,
            [userId, userId],
          );
          break;
        }
        case 'UserRegistered': {
          const user = event.data;
          // a registration seen again changes nothing (ON CONFLICT DO NOTHING), in the batch as in the table
          if (!registrations.has(user.userId)) {
            registrations.set(user.userId, {
              id: user.userId,
              email: user.email,
              name: user.name,
              photoURL: user.photoURL,
              role: 'user',
              member: false,
              suspension: null,
              registeredAt: user.registeredAt,
            });
          }
          break;
        }
        case 'ProfileUpdated': {
          // only the fields the update changed (a v1 event arrives upcast with both)
          const { userId, changes } = event.data;
          change(userId, { ...(changes.name !== undefined && { name: changes.name }), ...(changes.photoURL !== undefined && { photoURL: changes.photoURL }) });
          break;
        }
        case 'HandleChanged': {
          // Written on its own, in log order, where each handle is held by one member at a time (the
          // unique index is checked row by row); an erased member's handle reads as their erased name,
          // which no handle can be: their row has no handle until the erasure deletes it.
          const { userId, handle } = event.data;
          await flush();
          await trx.raw(`UPDATE users SET handle = ? WHERE id = ?`, [HANDLE_PATTERN.test(handle) ? handle : null, userId]);
          break;
        }
        case 'AdminRoleGranted':
          change(event.data.userId, { role: 'admin' });
          break;
        case 'ModeratorRoleGranted':
          change(event.data.userId, { role: 'moderator' });
          break;
        case 'ModeratorRoleRevoked':
          change(event.data.userId, { role: 'user' });
          break;
        case 'MemberSuspended': {
          const { userId, reason, until } = event.data;
          change(userId, { suspension: { reason, until } });
          break;
        }
        case 'SuspensionLifted':
          change(event.data.userId, { suspension: null });
          break;
        case 'MembershipPurchased':
          change(event.data.userId, { member: true });
          break;
        default:
          event satisfies never;
      }
    }
    function change(userId: string, fields: Change) {
      // the row as it stands in the table (if any), and the batch's own registration (if any) from here on;
      // an admin stays one (the table's row too: see writeUsers)
      const before = existing.get(userId);
      const registered = registrations.get(userId);
      const kept = (role: Role | undefined) => (fields.role !== undefined && role === 'admin' ? { ...fields, role } : fields);
      existing.set(userId, { ...before, ...kept(before?.role) });
      if (registered) Object.assign(registered, kept(registered.role));
    }
    await flush();
  },
});

/**
 * A segment's changes to users registered before it, then its registrations carrying the changes
 * that came after them, in two statements. Both in this order is the log's order too: an update of
 * an existing row cannot depend on a registration in the segment, and a registration's row takes
 * only later changes.
 */
async function writeUsers(trx: Knex.Transaction, registrations: ReadonlyMap<string, UserRow>, existing: ReadonlyMap<string, Change>) {
  if (existing.size > 0) {
    await trx.raw(
      `UPDATE users u SET name = coalesce(c.name, u.name), photo_url = coalesce(c."photoURL", u.photo_url),
         role = CASE WHEN u.role = 'admin' THEN 'admin' ELSE coalesce(c.role, u.role) END, is_member = u.is_member OR coalesce(c.member, false),
         suspended = coalesce(c.suspended, u.suspended),
         suspension_reason = CASE WHEN c.suspended IS NULL THEN u.suspension_reason ELSE c.reason END,
         suspended_until = CASE WHEN c.suspended IS NULL THEN u.suspended_until ELSE c.until END
       FROM jsonb_to_recordset(?::jsonb) AS c(id text, name text, "photoURL" text, role text, member boolean, suspended boolean, reason text, until timestamptz)
       WHERE u.id = c.id AND u.id = ANY (?::text[])`,
      [JSON.stringify([...existing].map(([id, { suspension, ...fields }]) => ({ id, ...fields, ...suspensionColumns(suspension) }))), [...existing.keys()]],
    );
  }
  if (registrations.size > 0) {
    await trx.raw(
      `WITH inserted AS (
         INSERT INTO users (id, email, name, photo_url, role, is_member, registered_at, registered_key, suspended, suspension_reason, suspended_until)
         SELECT id, email, name, "photoURL", role, member, "registeredAt", ${REGISTERED_KEY('"registeredAt"')}, coalesce(suspended, false), reason, until
         FROM jsonb_to_recordset(?::jsonb) AS x(id text, email text, name text, "photoURL" text, role text, member boolean, "registeredAt" timestamptz,
           suspended boolean, reason text, until timestamptz)
         ON CONFLICT (id) DO NOTHING
         RETURNING 1
       )
       UPDATE counters SET value = value + (SELECT count(*) FROM inserted) WHERE name = 'users'`,
      [JSON.stringify([...registrations.values()].map(({ suspension, ...row }) => ({ ...row, ...suspensionColumns(suspension) })))],
    );
  }
}

/**
 * The admin's "name or email contains" search through trigram indexes, where PostgreSQL has
 * pg_trgm (a trusted extension: the database's owner may add it; PostgreSQL's packages ship it).
 * It goes in the public schema, not the build's: a retired build's schema is dropped with all in it.
 * Without it the search reads every user (see the query-service's admin store).
 */
async function searchIndexes(trx: Knex.Transaction) {
  try {
    await trx.transaction(async (savepoint) => {
      await savepoint.raw(`DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN CREATE EXTENSION pg_trgm SCHEMA public; END IF;
      END $$`);
    });
  } catch {
    // not there to add, or not ours to add (another build may have added it meanwhile: asked again below)
  }
  const { rows } = await trx.raw<{ rows: { schema: string }[] }>(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`,
  );
  const schema = rows[0]?.schema;
  if (!schema) return;
  await trx.raw(`
    CREATE INDEX IF NOT EXISTS users_name_trgm ON users USING gin (lower(name) "${schema}".gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS users_email_trgm ON users USING gin (lower(email) "${schema}".gin_trgm_ops);`);
}

/** A suspension's columns: absent (no change), none in force (lifted), or its reason and end. */
const suspensionColumns = (suspension: Suspension | null | undefined) =>
  suspension === undefined ? {} : suspension === null ? { suspended: false, reason: null, until: null } : { suspended: true, ...suspension };

interface Suspension {
  reason: string;
  until: string | null;
}

interface UserRow {
  id: string;
  email: string;
  name: string;
  photoURL: string;
  role: Role;
  member: boolean;
  registeredAt: string;
  suspension: Suspension | null;
}
type Change = Partial<Pick<UserRow, 'name' | 'photoURL' | 'role' | 'member' | 'suspension'>>;
