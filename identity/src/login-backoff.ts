import { LOGIN_BACKOFF, normalizeEmail } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { SCHEMA } from './store.ts';
import { keyedMac } from './throttle.ts';

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
 * A pair's failures beyond its free ones count on the pair only: one address alone never makes the
 * account or itself wait for others. An attempt is counted as a failure before its password is
 * checked, in one transaction over its keys, and given back when the password was right: attempts
 * sent all at once cannot check more passwords than the waits allow. Everything is in PostgreSQL, so it holds across restarts and
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

/**
 * Until when the next try waits after `failures` failures: never ('-infinity') while they are free.
 * The wall clock, not the transaction's start (now()): attempts at once compare their times with
 * each other's, and one that began a moment earlier must not see the other's "no wait" as a wait.
 */
const blockedUntilSql = (failures: string) =>
  `CASE WHEN ${waitSql(failures)} = 0 THEN '-infinity'::timestamptz ELSE clock_timestamp() + make_interval(secs => ${waitSql(failures)}) END`;

export function createLoginBackoff(db: Knex, secret: Buffer) {
  const settings = LOGIN_BACKOFF;
  const mac = keyedMac(secret);

  const bindingsOf = (key: string, policy: Policy) => ({
    key,
    free: policy.free,
    first: policy.firstWaitSeconds,
    max: policy.maxWaitSeconds,
    forget: settings.forgetAfterSeconds,
  });

  /** Counts one failure on `key` unless it is waiting: then `passed` with the key's failures and the ms the next try waits, else the ms to wait. */
  async function count(trx: Knex.Transaction, key: string, policy: Policy): Promise<{ passed: boolean; ms: number; failures: number }> {
    const bindings = bindingsOf(key, policy);
    await trx.raw(`DELETE FROM ${BACKOFF} WHERE key = :key AND forget_at <= now()`, bindings);
    const counted = await trx.raw(
      `INSERT INTO ${BACKOFF} AS b (key, failures, blocked_until, forget_at)
       VALUES (:key, 1, ${blockedUntilSql('1')}, now() + make_interval(secs => :forget))
       ON CONFLICT (key) DO UPDATE SET
         failures = b.failures + 1,
         blocked_until = ${blockedUntilSql('b.failures + 1')},
         forget_at = excluded.forget_at
       WHERE b.blocked_until <= clock_timestamp()
       RETURNING b.failures, CASE WHEN b.blocked_until = '-infinity' THEN 0 ELSE greatest(0, ceil(extract(epoch FROM b.blocked_until - clock_timestamp()) * 1000)) END AS ms`,
      bindings,
    );
    const row = counted.rows[0] as { failures: number; ms: string } | undefined;
    return row ? { passed: true, ms: Number(row.ms), failures: row.failures } : { passed: false, ms: await waitOf(trx, key), failures: 0 };
  }

  /** The ms `key` still waits (at least a second), or 0. */
  async function waitOf(trx: Knex.Transaction, key: string): Promise<number> {
    const waiting = await trx.raw(
      `SELECT ceil(extract(epoch FROM blocked_until - clock_timestamp()) * 1000) AS ms FROM ${BACKOFF} WHERE key = :key AND blocked_until > clock_timestamp() AND forget_at > now()`,
      { key },
    );
    return waiting.rows.length ? Math.max(1000, Number(waiting.rows[0].ms)) : 0;
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
      const pair = mac('pair', address, account);
      const shared: Array<[string, Policy]> =
        familiar.rows.length > 0
          ? []
          : [
              [mac('account', account), settings.account],
              [mac('address', address), settings.address],
            ];
      const counted: Array<[string, Policy]> = [[pair, settings.pair]];
      const refused = (ms: number): LoginAttempt => ({ waitMs: ms, waitAfterFailureMs: ms, succeeded: async () => {} });
      // one order of keys for every transaction (pair, account, address): attempts never wait on each other's rows crosswise
      const trx = await db.transaction();
      let waitAfterFailureMs = 0;
      try {
        const own = await count(trx, pair, settings.pair);
        if (!own.passed) return (await trx.rollback(), refused(own.ms));
        waitAfterFailureMs = own.ms;
        for (const [key, policy] of shared) {
          // past its free failures a pair is held by its own waits: one address alone cannot fill the account's or its own count
          if (own.failures > settings.pair.free) {
            const wait = await waitOf(trx, key);
            if (wait) return (await trx.rollback(), refused(wait));
            continue;
          }
          const { passed, ms } = await count(trx, key, policy);
          if (!passed) return (await trx.rollback(), refused(ms));
          counted.push([key, policy]);
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
            // the attempt's order of keys: the pair forgets everything; the shared keys give this attempt back,
            // and their wait is no longer than their failures now call for
            for (const [key, policy] of counted) {
              if (key === pair) await done.raw(`DELETE FROM ${BACKOFF} WHERE key = :key`, { key });
              else
                await done.raw(
                  `UPDATE ${BACKOFF} SET failures = failures - 1, blocked_until = LEAST(blocked_until, ${blockedUntilSql('failures - 1')})
                   WHERE key = :key AND failures > 0`,
                  bindingsOf(key, policy),
                );
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
