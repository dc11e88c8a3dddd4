import type { Knex } from '@forum/platform';
import { SCHEMA } from './store.ts';

/**
 * Whether the embedded realm vouches for a member's address (`accounts.email_verified`), read from
 * its tables in the forum's PostgreSQL, from any process. Without the realm's tables (an external
 * issuer) nothing is vouched for: false.
 */
export function realmEmailVerified(db: Knex): (userId: string) => Promise<boolean> {
  let realmHere = false;
  return async (userId) => {
    if (!realmHere) {
      const { rows } = await db.raw<{ rows: { here: boolean }[] }>(`SELECT to_regclass('${SCHEMA}.accounts') IS NOT NULL AS here`);
      realmHere = rows[0]?.here === true;
      if (!realmHere) return false;
    }
    const { rows } = await db.raw<{ rows: { email_verified: boolean }[] }>(`SELECT email_verified FROM ${SCHEMA}.accounts WHERE id::text = ?`, [userId]);
    return rows[0]?.email_verified === true;
  };
}
