import { createHmac } from 'node:crypto';
import { LOGIN_BACKOFF, normalizeEmail } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { SCHEMA } from './store.ts';

/**
 * The sign-in back-off (password form and password grant): it throttles whoever guesses, not the
 * owner of the account (docs/security/identity.md has the reasoning and the arithmetic).
 *
 * Failed sign-ins count on three keys: the (client address, account) pair, the account, and the
 * client address. Each key lets `free` failures pass; then every further failure makes the next try
 * on that key wait, doubling from `firstWaitSeconds` up to `maxWaitSeconds`. A key forgets its
 * failures `forgetAfterSeconds` after the last one. An address the account signed in from lately
 * (familiar: a right password, a registration, a reset through the mailed link, Google) is held
 * only by its own pair: the attacker's failures elsewhere never refuse the owner there.
 *
 * An attempt is counted as a failure before its password is checked, in one transaction over its
 * keys, and given back when the password was right: attempts sent all at once cannot check more
 * passwords than the waits allow. Everything is in PostgreSQL, so it holds across restarts and
 * between processes; keys are HMACs under a realm secret (no emails or addresses in the tables).
 */
type Policy = { readonly free: number; readonly firstWaitSeconds: number; readonly maxWaitSeconds: number };

export interface LoginAttempt {
  /** ms to wait before this sign-in may be tried; 0: check the password, then call `succeeded` when it was right. */
  readonly waitMs: number;
  /** ms the next try waits if this one's password is wrong (it is counted already). */
  readonly waitAfterFailureMs: number;
  /** The password was right: the attempt is given back, the pair forgets its failures, the address becomes familiar. */
  succeeded(): Promise<void>;
}

const BACKOFF = `${SCHEMA}.login_backoff`;
const FAMILIAR = `${SCHEMA}.familiar_addresses`;

/** Seconds the next try waits after `failures` failures (an SQL expression over `failures`). */
const waitSql = (failures: string) =>
  `CASE WHEN ${failures} < :free THEN 0 ELSE LEAST(:first * power(2, ${failures} - :free), :max) END`;

export function createLoginBackoff(db: Knex, secret: Buffer) {
  const settings = LOGIN_BACKOFF;
  const mac = (...parts: string[]) => createHmac('sha256', secret).update(parts.join('\u0000')).digest('base64url');

  /** Counts one failure on `key` unless it is waiting: the ms the next try then waits, or the ms this one must wait. */
  async function take(trx: Knex.Transaction, key: string, policy: Policy): Promise<{ taken: boolean; ms: number }> {
    const bindings = { key, free: policy.free, first: policy.firstWaitSeconds, max: policy.maxWaitSeconds, forget: settings.forgetAfterSeconds };
    await trx.raw(`DELETE FROM ${BACKOFF} WHERE key = :key AND forget_at <= now()`, bindings);
    const counted = await trx.raw(
      `INSERT INTO ${BACKOFF} AS b (key, failures, blocked_until, forget_at)
       VALUES (:key, 1, now() + make_interval(secs => ${waitSql('1')}), now() + make_interval(secs => :forget))
       ON CONFLICT (key) DO UPDATE SET
         failures = b.failures + 1,
         blocked_until = now() + make_interval(secs => ${waitSql('b.failures + 1')}),
         forget_at = excluded.forget_at
       WHERE b.blocked_until <= now()
       RETURNING ceil(extract(epoch FROM b.blocked_until - now()) * 1000) AS ms`,
      bindings,
    );
    if (counted.rows.length > 0) return { taken: true, ms: Number(counted.rows[0].ms) };
    const waiting = await trx.raw(`SELECT ceil(extract(epoch FROM blocked_until - now()) * 1000) AS ms FROM ${BACKOFF} WHERE key = :key`, bindings);
    return { taken: false, ms: Math.max(1000, Number(waiting.rows[0]?.ms ?? 1000)) };
  }

  async function makeFamiliar(account: string, address: string, trx: Knex | Knex.Transaction = db) {
    await trx.raw(
      `INSERT INTO ${FAMILIAR} (key, account_key, expires_at) VALUES (:key, :account, now() + make_interval(secs => :days))
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at`,
      { key: mac('familiar', account, address), account: mac('account', account), days: settings.familiarForSeconds },
    );
  }

  return {
    /** Before a password is checked: whether this sign-in may be tried now (see LoginAttempt). */
    async attempt(email: string, address: string): Promise<LoginAttempt> {
      const account = normalizeEmail(email);
      const familiar = await db.raw(`SELECT 1 FROM ${FAMILIAR} WHERE key = :key AND expires_at > now()`, { key: mac('familiar', account, address) });
      // one order for every transaction (address, account, pair): two attempts never wait on each other's rows crosswise
      const held: Array<[string, Policy]> = [
        ...(familiar.rows.length > 0
          ? []
          : ([
              [mac('address', address), settings.address],
              [mac('account', account), settings.account],
            ] as Array<[string, Policy]>)),
        [mac('pair', address, account), settings.pair],
      ];
      const trx = await db.transaction();
      let waitAfterFailureMs = 0;
      try {
        for (const [key, policy] of held) {
          const { taken, ms } = await take(trx, key, policy);
          if (!taken) {
            await trx.rollback();
            return { waitMs: ms, waitAfterFailureMs: ms, succeeded: async () => {} };
          }
          waitAfterFailureMs = Math.max(waitAfterFailureMs, ms);
        }
        await trx.commit();
      } catch (error) {
        if (!trx.isCompleted()) await trx.rollback();
        throw error;
      }
      return {
        waitMs: 0,
        waitAfterFailureMs,
        async succeeded() {
          await db.transaction(async (done) => {
            // the attempt's order of keys; the pair (last) forgets everything, the shared keys only this attempt
            for (const [index, [key]] of held.entries()) {
              if (index === held.length - 1) await done.raw(`DELETE FROM ${BACKOFF} WHERE key = :key`, { key });
              else await done.raw(`UPDATE ${BACKOFF} SET failures = failures - 1 WHERE key = :key AND failures > 0`, { key });
            }
            await makeFamiliar(account, address, done);
          });
        },
      };
    },

    /** The owner is at this address (registered, reset through the mailed link, signed in with Google): familiar, the pair forgiven. */
    async proven(email: string, address: string): Promise<void> {
      const account = normalizeEmail(email);
      await db.raw(`DELETE FROM ${BACKOFF} WHERE key = :key`, { key: mac('pair', address, account) });
      await makeFamiliar(account, address);
    },

    /** The account changed hands (an unverified one taken back by the mailbox's owner): no address is familiar any more. */
    async forgetFamiliar(email: string): Promise<void> {
      await db.raw(`DELETE FROM ${FAMILIAR} WHERE account_key = :account`, { account: mac('account', normalizeEmail(email)) });
    },
  };
}

export type LoginBackoff = ReturnType<typeof createLoginBackoff>;

/** Drops back-off rows whose failures are forgotten and waits over, and familiar addresses past their time. */
export async function deleteExpiredBackoff(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM ${BACKOFF} WHERE forget_at < now() AND blocked_until < now()`);
  await db.raw(`DELETE FROM ${FAMILIAR} WHERE expires_at < now()`);
}
