import { ERASED_VALUES, type AccountErased, type ProfileUpdated } from '@forum/contracts';
import type { Knex } from '@forum/platform';

export type ProfileChanges = ProfileUpdated['data']['changes'];

/** Where a row of a batch keeps a person's id, name and photo. */
export interface PersonFields<K extends string> {
  readonly id: K;
  readonly name: K;
  readonly photo: K;
}

export const AUTHOR = { id: 'authorId', name: 'authorName', photo: 'authorPhoto' } as const;

/**
 * A profile change that comes in a batch after rows of that batch (not yet
 * written) carries over to them: they are written with the person's new name
 * or photo, as the log's order gives. Only the fields the update changed.
 */
export function carryProfileChange<K extends string>(
  rows: Iterable<Record<K, string>>,
  fields: PersonFields<K>,
  userId: string,
  changes: ProfileChanges,
): void {
  for (const row of rows) {
    if (row[fields.id] !== userId) continue;
    if (changes.name !== undefined) row[fields.name] = changes.name;
    if (changes.photoURL !== undefined) row[fields.photo] = changes.photoURL;
  }
}

/**
 * A rebuild's name and photo changes, as facts with their log positions, kept
 * until the replay settles (see `Projection.replay`): a row written before a
 * person's latest change of a field takes it, a row written after keeps its own.
 */
export const REPLAY_PROFILES_TABLE = 'CREATE TABLE IF NOT EXISTS replay_profiles (user_id text NOT NULL, name text, photo_url text, pos bigint NOT NULL)';

/** A range's name and photo changes (see `Projection.replay`) as rows (user_id, name, photo_url, pos); `?` is the log. */
const LOG_PROFILE_CHANGES = `SELECT data->>'userId' AS user_id, data->'changes'->>'name' AS name, data->'changes'->>'photoURL' AS photo_url, pos
  FROM ? e WHERE type = 'ProfileUpdated'`;

/** Per person, what a batch's name and photo changes come to, as a row for `jsonb_to_recordset(…) AS x("userId" text, name text, "photoURL" text)`. */
export interface MergedProfileChange {
  userId: string;
  name?: string;
  photoURL?: string;
}

/** Adds a profile change to a batch's merged changes: only the fields it changed, a later one winning. */
export function mergeProfileChange(merged: Map<string, MergedProfileChange>, userId: string, changes: ProfileChanges): void {
  const person = merged.get(userId) ?? { userId };
  if (changes.name !== undefined) person.name = changes.name;
  if (changes.photoURL !== undefined) person.photoURL = changes.photoURL;
  merged.set(userId, person);
}

/** Records a range's name and photo changes as facts, for `settle`. */
export async function stageProfileChanges(trx: Knex.Transaction, log: Knex.Raw): Promise<void> {
  await trx.raw(`INSERT INTO replay_profiles (user_id, name, photo_url, pos) ${LOG_PROFILE_CHANGES}`, [log]);
}

/** Per person, the latest name and photo of `changes` (rows as `replay_profiles`) and their positions (name_pos, photo_pos: null when unchanged). */
export const latestProfileChanges = (changes: string) => `
  SELECT user_id,
         (array_agg(name ORDER BY pos DESC) FILTER (WHERE name IS NOT NULL))[1] AS name,
         max(pos) FILTER (WHERE name IS NOT NULL) AS name_pos,
         (array_agg(photo_url ORDER BY pos DESC) FILTER (WHERE photo_url IS NOT NULL))[1] AS photo_url,
         max(pos) FILTER (WHERE photo_url IS NOT NULL) AS photo_pos
  FROM (${changes}) c GROUP BY user_id`;

/** Per person, the latest staged name and photo (see `latestProfileChanges`). */
export const LATEST_PROFILE_CHANGES = latestProfileChanges('SELECT * FROM replay_profiles');

/** Per person, the latest name and photo of a range of the log (see `latestProfileChanges`); `?` is the log. */
export const LATEST_PROFILE_CHANGES_IN_LOG = latestProfileChanges(LOG_PROFILE_CHANGES);

/** The members a relation of the log (`?`) erases: rows (user_id, content). */
export const ERASED_IN_LOG = `SELECT data->>'userId' AS user_id, data->>'content' AS content FROM ? e WHERE type = 'AccountErased'`;

/** The erasure of one member as a relation (user_id, content) for `ERASED_IN_LOG`'s readers; `?`, `?`: its user id and content. */
export const ONE_ERASURE = 'SELECT ?::text AS user_id, ?::text AS content';

/** The bindings of `ONE_ERASURE` for an AccountErased. */
export const oneErasure = (erased: AccountErased['data']): Knex.RawBinding[] => [erased.userId, erased.content];

/**
 * A range's erasures reach the name and photo changes staged before them: a rebuild that staged a
 * member's changes while their keys still existed must not settle their old name onto their rows.
 */
export async function eraseStagedProfileChanges(trx: Knex.Transaction, log: Knex.Raw): Promise<void> {
  await trx.raw(
    `UPDATE replay_profiles r SET name = CASE WHEN r.name IS NOT NULL THEN ? END, photo_url = CASE WHEN r.photo_url IS NOT NULL THEN ? END
     FROM (${ERASED_IN_LOG}) x WHERE r.user_id = x.user_id`,
    [ERASED_VALUES.name, ERASED_VALUES.photo, log],
  );
}

/** Whether a relation of the log (`?`) holds an erasure: most ranges do not, and need no pass over the rows for one. */
export async function anyErasureIn(trx: Knex.Transaction, log: Knex.Raw): Promise<boolean> {
  const { rows } = await trx.raw<{ rows: { any: boolean }[] }>(`SELECT EXISTS (SELECT 1 FROM ? e WHERE type = 'AccountErased') AS any`, [log]);
  return rows[0]!.any;
}
