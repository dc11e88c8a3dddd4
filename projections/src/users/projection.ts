import type { AdminRoleGranted, MembershipPurchased, ProfileUpdated, UserRegistered } from '@forum/contracts';
import type { RecordedEvent } from '@forum/command-service/eventstore';
import { byEventType, type Projection } from '../runner/projection.ts';

/** The forum's users: profiles, roles and membership, and the total for the admin stats. */
export const usersProjection: Projection = {
  name: 'users',
  version: 1,
  exposes: { users: 'users', user_counters: 'counters' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS users (
        id text PRIMARY KEY,
        email text NOT NULL,
        name text NOT NULL,
        photo_url text NOT NULL,
        role text NOT NULL DEFAULT 'user',
        is_member boolean NOT NULL DEFAULT false,
        registered_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS users_email ON users (lower(email));
      -- the admin's user list, by name
      CREATE INDEX IF NOT EXISTS users_name ON users (lower(name), id);
      CREATE TABLE IF NOT EXISTS counters (name text PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO counters (name, value) VALUES ('users', 0) ON CONFLICT DO NOTHING;
    `);
  },
  apply: byEventType({
    async UserRegistered(trx, event: RecordedEvent) {
      const user = (event as RecordedEvent<'UserRegistered', UserRegistered['data']>).data;
      const inserted = await trx.raw(
        `INSERT INTO users (id, email, name, photo_url, registered_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
        [user.userId, user.email, user.name, user.photoURL, user.registeredAt],
      );
      if (inserted.rowCount === 1) await trx.raw(`UPDATE counters SET value = value + 1 WHERE name = 'users'`);
    },
    async ProfileUpdated(trx, event: RecordedEvent) {
      // only the fields the update changed (a v1 event arrives upcast with both)
      const { userId, changes } = (event as RecordedEvent<'ProfileUpdated', ProfileUpdated['data']>).data;
      await trx.raw('UPDATE users SET name = coalesce(?, name), photo_url = coalesce(?, photo_url) WHERE id = ?', [
        changes.name ?? null,
        changes.photoURL ?? null,
        userId,
      ]);
    },
    async AdminRoleGranted(trx, event: RecordedEvent) {
      const grant = (event as RecordedEvent<'AdminRoleGranted', AdminRoleGranted['data']>).data;
      await trx.raw(`UPDATE users SET role = 'admin' WHERE id = ?`, [grant.userId]);
    },
    async MembershipPurchased(trx, event: RecordedEvent) {
      const purchase = (event as RecordedEvent<'MembershipPurchased', MembershipPurchased['data']>).data;
      await trx.raw('UPDATE users SET is_member = true WHERE id = ?', [purchase.userId]);
    },
  }),
};
