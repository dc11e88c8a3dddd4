import type { Knex } from '@forum/platform';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { SCHEMA } from './store.ts';

const TABLE = `${SCHEMA}.oidc_payloads`;

/**
 * PostgreSQL text cannot hold U+0000, so no stored key has one, and a query with one fails
 * (22021) instead of finding nothing. Keys come from requests (a client id, an interaction's uid):
 * a stranger's NUL is a key that matches no row.
 */
const storable = (key: string) => !key.includes('\u0000');

/**
 * oidc-provider storage (sessions, interactions, grants, codes, refresh tokens)
 * in one PostgreSQL table, so sign-ins survive restarts and are shared between
 * processes. JWT access tokens are never stored.
 */
export function postgresAdapter(db: Knex) {
  return class PostgresAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      await db.raw(
        `INSERT INTO ${TABLE} (model, id, payload, grant_id, user_code, uid, expires_at, consumed_at)
         VALUES (?, ?, ?::jsonb, ?, ?, ?, CASE WHEN ?::int IS NULL THEN NULL ELSE now() + make_interval(secs => ?::int) END, NULL)
         ON CONFLICT (model, id) DO UPDATE SET
           payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code,
           uid = excluded.uid, expires_at = excluded.expires_at, consumed_at = NULL`,
        [this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresIn ?? null, expiresIn ?? null],
      );
    }

    private async findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      if (!storable(value)) return undefined;
      const result = await db.raw<{ rows: { payload: AdapterPayload; consumed: number | string | null }[] }>(
        `SELECT payload, extract(epoch FROM consumed_at)::bigint AS consumed
         FROM ${TABLE}
         WHERE model = ? AND ${column} = ? AND (expires_at IS NULL OR expires_at > now())
         LIMIT 1`,
        [this.model, value],
      );
      const row = result.rows[0];
      if (!row) return undefined;
      return row.consumed === null ? row.payload : { ...row.payload, consumed: Number(row.consumed) };
    }

    find(id: string) {
      return this.findWhere('id', id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      if (!storable(id)) return;
      await db.raw(`UPDATE ${TABLE} SET consumed_at = now() WHERE model = ? AND id = ?`, [this.model, id]);
    }

    async destroy(id: string): Promise<void> {
      if (!storable(id)) return;
      await db.raw(`DELETE FROM ${TABLE} WHERE model = ? AND id = ?`, [this.model, id]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      if (!storable(grantId)) return;
      await db.raw(`DELETE FROM ${TABLE} WHERE model = ? AND grant_id = ?`, [this.model, grantId]);
    }
  };
}

/** Drops expired rows; returns how many went. */
export async function deleteExpired(db: Knex): Promise<number> {
  const result = await db.raw<{ rowCount: number | null }>(`DELETE FROM ${TABLE} WHERE expires_at < now() - interval '5 minutes'`);
  return result.rowCount ?? 0;
}
