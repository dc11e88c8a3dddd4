import type { ProfileUpdated } from '@forum/contracts';

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
