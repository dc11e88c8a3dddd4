import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_KINDS, type NotificationKind } from '@forum/contracts';
import type { Knex } from '../db.ts';

/** What an email's unsubscribe link stands for: the member it was sent to and the kinds it was of. */
export interface UnsubscribeGrant {
  readonly userId: string;
  readonly kinds: readonly NotificationKind[];
}

export interface UnsubscribeTokens {
  /** `<payload>.<signature>`, both base64url: the payload names the member and the kinds in clear (nothing secret), the HMAC-SHA256 vouches for them. */
  sign(grant: UnsubscribeGrant): string;
  /** The grant a token the forum signed stands for; null for anything else (forged, altered, cut, of another forum). */
  verify(token: string): UnsubscribeGrant | null;
}

const KINDS: ReadonlySet<string> = new Set(NOTIFICATION_KINDS);

/** Signs and checks unsubscribe links with `secret` (at least 32 bytes), which the forum keeps in PostgreSQL (unsubscribeSecret). */
export function unsubscribeTokens(secret: Buffer): UnsubscribeTokens {
  if (secret.length < 32) throw new TypeError('the unsubscribe secret must have at least 32 bytes');
  const mac = (payload: string) => createHmac('sha256', secret).update(`unsubscribe.${payload}`).digest();
  return {
    sign({ userId, kinds }) {
      const payload = Buffer.from(JSON.stringify({ u: userId, k: [...new Set(kinds)] })).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    verify(token) {
      const [payload, signature, ...rest] = token.split('.');
      if (payload === undefined || signature === undefined || rest.length > 0) return null;
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const { u, k } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u?: unknown; k?: unknown };
        if (typeof u !== 'string' || u === '' || !Array.isArray(k) || k.length === 0 || !k.every((kind) => typeof kind === 'string' && KINDS.has(kind)))
          return null;
        return { userId: u, kinds: k as NotificationKind[] };
      } catch {
        return null;
      }
    },
  };
}

/** The schema of email delivery (the outbox and this secret): beside the read models, never rebuilt with them. */
export const MAIL_SCHEMA = 'mail';
const SECRET_NAME = 'unsubscribe';
/** Serialises the schema's creation between processes starting at once. */
const INIT_LOCK = 'forum:mail:secret';

/**
 * The forum's unsubscribe secret: made at random by the first process that asks, kept in
 * `mail.secrets` so that every process (command services verifying, mailers signing) and every
 * restart uses the same one. Never logged.
 */
export async function unsubscribeSecret(db: Knex): Promise<Buffer> {
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [INIT_LOCK]);
    await trx.raw(`CREATE SCHEMA IF NOT EXISTS ${MAIL_SCHEMA}`);
    await trx.raw(
      `CREATE TABLE IF NOT EXISTS ${MAIL_SCHEMA}.secrets (name text PRIMARY KEY, value bytea NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
    );
    await trx.raw(`INSERT INTO ${MAIL_SCHEMA}.secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, [SECRET_NAME, randomBytes(32)]);
    const { rows } = await trx.raw<{ rows: { value: Buffer }[] }>(`SELECT value FROM ${MAIL_SCHEMA}.secrets WHERE name = ?`, [SECRET_NAME]);
    return rows[0]!.value;
  });
}
