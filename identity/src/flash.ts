import { createHash } from 'node:crypto';
import type { Knex } from '@forum/platform';
import { SCHEMA } from './store.ts';

/**
 * Post-redirect-get for the realm's forms. A refused submission leaves what its page must show
 * (the message, the values typed, never a password, and the status it earned) under a key of the
 * browser's own pending sign-in or link, and answers 303 to that page; the page's GET takes it,
 * once. Back, forward and reload then load pages with GET and never post a form again (no
 * "Confirm Form Resubmission", no ERR_CACHE_MISS).
 */
const TABLE = `${SCHEMA}.form_flashes`;
/** Long enough for the browser to follow the redirect under load; a flash nobody took then goes. */
const FLASH_TTL_SECONDS = 120;

const hashed = (key: string) => createHash('sha256').update(key).digest('base64url');

export function createFlash(db: Knex) {
  return {
    async put<T>(key: string, value: T): Promise<void> {
      await db.raw(
        `INSERT INTO ${TABLE} (key, value, expires_at) VALUES (?, ?, now() + make_interval(secs => ?))
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
        [hashed(key), JSON.stringify(value), FLASH_TTL_SECONDS],
      );
    },
    /** The flash under `key`, gone once read; null when there is none (or it expired). */
    async take<T>(key: string): Promise<T | null> {
      const result = await db.raw<{ rows: { value: string; live: boolean }[] }>(
        `DELETE FROM ${TABLE} WHERE key = ? RETURNING value, expires_at > now() AS live`,
        [hashed(key)],
      );
      const row = result.rows[0];
      return row?.live ? (JSON.parse(row.value) as T) : null;
    },
  };
}

export type Flash = ReturnType<typeof createFlash>;

export async function deleteExpiredFlashes(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM ${TABLE} WHERE expires_at < now()`);
}
