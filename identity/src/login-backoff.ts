import { randomUUID } from 'node:crypto';
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
 * account or itself wait for others.
 *
 * Only a wrong password is a failure. A sign-in whose password is being checked holds a try on its
 * keys (a row of login_in_flight) until it ends; a key lets no more sign-ins check a password at
 * once than it has tries left before its next wait (its free failures left, or one once a wait has
 * passed). A sign-in beyond that waits for those in flight to end, then is let through or held
 * by the wait their failures brought: attempts sent all at once check no more passwords than
 * attempts sent in turn, and right passwords are never refused for others still in flight.
 * Everything is in PostgreSQL, so it holds across restarts and between processes; keys are HMACs
 * under a realm secret (no emails or addresses in the tables).
 */
type Policy = { readonly free: number; readonly firstWaitSeconds: number; readonly maxWaitSeconds: number };

export type LoginAttempt =
  /** The back-off holds this sign-in: try again in `waitMs`. */
  | { readonly kind: 'held'; readonly waitMs: number }
  /** Tries in flight on its keys did not end in time (a database that stalls): nothing was checked; try again in `waitMs`. */
  | { readonly kind: 'busy'; readonly waitMs: number }
  /** Check the password now, then say how it went (once). */
  | {
      readonly kind: 'check';
      /** The password was wrong: counted now; the ms the next try waits because of it (0: none yet). */
      failed(): Promise<number>;
      /** The password was right: the pair forgets its failures, the address becomes familiar. */
      succeeded(): Promise<void>;
      /** The password could not be checked (an error): the try is given back, uncounted. */
      abandoned(): Promise<void>;
    };

const BACKOFF = `${SCHEMA}.login_backoff`;
const IN_FLIGHT = `${SCHEMA}.login_in_flight`;
const FAMILIAR = `${SCHEMA}.familiar_addresses`;
/** The longest a sign-in in flight holds its try: a password check takes well under a second; a stopped process's tries come back after this. */
const IN_FLIGHT_SECONDS = 30;
/** How often a waiting sign-in looks again when no sign-in of this process ended (another process's may have). */
const RECHECK_MS = 100;

/** Seconds the next try waits after `failures` failures (an SQL expression over `failures`). */
const waitSql = (failures: string) => `CASE WHEN ${failures} < :free THEN 0 ELSE LEAST(:first * power(2, ${failures} - :free), :max) END`;

/**
 * Until when the next try waits after `failures` failures: never ('-infinity') while they are free.
 * The wall clock, not the transaction's start (now()): attempts at once compare their times with
 * each other's, and one that began a moment earlier must not see the other's "no wait" as a wait.
 */
const blockedUntilSql = (failures: string) =>
  `CASE WHEN ${waitSql(failures)} = 0 THEN '-infinity'::timestamptz ELSE clock_timestamp() + make_interval(secs => ${waitSql(failures)}) END`;

/** The ms `blocked_until` is still ahead (0 when it is past). */
const msLeftSql = `CASE WHEN blocked_until > clock_timestamp() THEN ceil(extract(epoch FROM blocked_until - clock_timestamp()) * 1000) ELSE 0 END`;

export function createLoginBackoff(db: Knex, secret: Buffer) {
  const settings = LOGIN_BACKOFF;
  const mac = keyedMac(secret);
  /** Sign-ins of this process waiting for a try on a key, woken when one on that key ends. */
  const waiting = new Map<string, Set<() => void>>();

  const bindingsOf = (key: string, policy: Policy) => ({
    key,
    free: policy.free,
    first: policy.firstWaitSeconds,
    max: policy.maxWaitSeconds,
    forget: settings.forgetAfterSeconds,
  });

  /** A key's failures, its wait and its tries in flight, its row locked until the transaction ends (forgotten failures dropped). */
  async function lock(trx: Knex.Transaction, key: string, policy: Policy) {
    const row = await trx.raw<{ rows: { failures: number; ms: string; in_flight: number }[] }>(
      `INSERT INTO ${BACKOFF} AS b (key, failures, blocked_until, forget_at)
       VALUES (:key, 0, '-infinity', now() + make_interval(secs => :forget))
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN b.forget_at <= now() THEN 0 ELSE b.failures END,
         blocked_until = CASE WHEN b.forget_at <= now() THEN '-infinity' ELSE b.blocked_until END,
         forget_at = CASE WHEN b.forget_at <= now() THEN excluded.forget_at ELSE b.forget_at END
       RETURNING failures, ${msLeftSql} AS ms,
         (SELECT count(*)::int FROM ${IN_FLIGHT} f WHERE f.key = b.key AND f.expires_at > clock_timestamp()) AS in_flight`,
      bindingsOf(key, policy),
    );
    const { failures, ms, in_flight: inFlight } = row.rows[0]!;
    return { failures, waitMs: Number(ms), inFlight, tries: failures < policy.free ? policy.free - failures : 1 };
  }

  /** The ms `key` still waits, or 0 (read only). */
  async function waitOf(trx: Knex.Transaction, key: string): Promise<number> {
    const row = await trx.raw<{ rows: { ms: string }[] }>(`SELECT ${msLeftSql} AS ms FROM ${BACKOFF} WHERE key = :key AND forget_at > now()`, { key });
    const found = row.rows[0];
    return found ? Number(found.ms) : 0;
  }

  /** Settles when a sign-in on one of `keys` ends in this process, or after `ms`, or when stopped. */
  function listen(keys: readonly string[], ms: number): { next: Promise<void>; stop(): void } {
    let stop = () => {};
    const next = new Promise<void>((resolve) => {
      stop = () => {
        clearTimeout(timer);
        for (const key of keys) {
          const set = waiting.get(key);
          set?.delete(stop);
          if (set?.size === 0) waiting.delete(key);
        }
        resolve();
      };
      const timer = setTimeout(stop, ms);
      for (const key of keys) waiting.set(key, (waiting.get(key) ?? new Set()).add(stop));
    });
    return { next, stop };
  }

  function ended(keys: readonly string[]) {
    for (const key of keys) for (const wake of [...(waiting.get(key) ?? [])]) wake();
  }

  async function makeFamiliar(account: string, address: string, trx: Knex | Knex.Transaction = db) {
    await trx.raw(
      `INSERT INTO ${FAMILIAR} (key, account_key, expires_at) VALUES (:key, :account, now() + make_interval(secs => :days))
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at`,
      { key: mac('familiar', account, address), account: mac('account', account), days: settings.familiarForSeconds },
    );
  }

  type Reservation = { held: number } | { busy: true } | { reserved: Array<[string, Policy]> };

  /**
   * In one transaction over the keys, in one order for every transaction (pair, account, address, so
   * that attempts never wait on each other's rows crosswise): held, busy, or a try reserved on the keys
   * its failure would count on.
   */
  async function reserve(id: string, pair: string, shared: ReadonlyArray<[string, Policy]>): Promise<Reservation> {
    return db.transaction(async (trx) => {
      const own = await lock(trx, pair, settings.pair);
      if (own.waitMs) return { held: own.waitMs };
      if (own.inFlight >= own.tries) return { busy: true };
      const reserved: Array<[string, Policy]> = [[pair, settings.pair]];
      // past its free failures a pair is held by its own waits: one address alone cannot fill the account's or its own count
      const countsOnShared = own.failures + own.inFlight < settings.pair.free;
      for (const [key, policy] of shared) {
        if (!countsOnShared) {
          const wait = await waitOf(trx, key);
          if (wait) return { held: wait };
          continue;
        }
        const state = await lock(trx, key, policy);
        if (state.waitMs) return { held: state.waitMs };
        if (state.inFlight >= state.tries) return { busy: true };
        reserved.push([key, policy]);
      }
      const { list, bindings } = keyList(reserved.map(([key]) => key));
      await trx.raw(
        `INSERT INTO ${IN_FLIGHT} (key, attempt, expires_at) SELECT key, :id::uuid, clock_timestamp() + make_interval(secs => :ttl) FROM (VALUES ${list.map((name) => `(${name})`).join(', ')}) AS keys(key)`,
        { ...bindings, id, ttl: IN_FLIGHT_SECONDS },
      );
      return { reserved };
    });
  }

  return {
    /** Before a password is checked: whether this sign-in may be tried now (see LoginAttempt); it may wait for others in flight first. */
    async attempt(email: string, address: string): Promise<LoginAttempt> {
      const account = normalizeEmail(email);
      const familiar = await db.raw<{ rows: unknown[] }>(`SELECT 1 FROM ${FAMILIAR} WHERE key = :key AND expires_at > now()`, {
        key: mac('familiar', account, address),
      });
      const pair = mac('pair', address, account);
      const shared: Array<[string, Policy]> =
        familiar.rows.length > 0
          ? []
          : [
              [mac('account', account), settings.account],
              [mac('address', address), settings.address],
            ];
      const keys = [pair, ...shared.map(([key]) => key)];
      const id = randomUUID();
      const giveUpAt = Date.now() + IN_FLIGHT_SECONDS * 1000;
      for (;;) {
        // listening before looking: a sign-in that ends while this one looks still wakes it
        const end = listen(keys, RECHECK_MS);
        let outcome: Reservation;
        try {
          outcome = await reserve(id, pair, shared);
        } catch (error) {
          end.stop();
          throw error;
        }
        if ('held' in outcome) {
          end.stop();
          return { kind: 'held', waitMs: Math.max(1000, outcome.held) };
        }
        if ('reserved' in outcome) {
          end.stop();
          return checking(id, account, address, pair, outcome.reserved);
        }
        if (Date.now() >= giveUpAt) {
          end.stop();
          return { kind: 'busy', waitMs: IN_FLIGHT_SECONDS * 1000 };
        }
        await end.next;
      }
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

  /** The try reserved on `reserved` (pair first), ended once by one of its three calls. */
  function checking(id: string, account: string, address: string, pair: string, reserved: ReadonlyArray<[string, Policy]>): LoginAttempt {
    const keys = reserved.map(([key]) => key);
    const { list, bindings } = keyList(keys);
    const release = async (trx: Knex.Transaction) => {
      await trx.raw(`DELETE FROM ${IN_FLIGHT} WHERE key IN (${list.join(', ')}) AND attempt = :id`, { ...bindings, id });
    };
    const end = async <T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> => {
      try {
        return await db.transaction(work);
      } finally {
        ended(keys);
      }
    };
    return {
      kind: 'check',
      failed: () =>
        end(async (trx) => {
          await release(trx);
          let waitMs = 0;
          for (const [key, policy] of reserved) {
            const counted = await trx.raw<{ rows: { ms: string }[] }>(
              `INSERT INTO ${BACKOFF} AS b (key, failures, blocked_until, forget_at)
               VALUES (:key, 1, ${blockedUntilSql('1')}, now() + make_interval(secs => :forget))
               ON CONFLICT (key) DO UPDATE SET
                 failures = b.failures + 1,
                 blocked_until = GREATEST(b.blocked_until, ${blockedUntilSql('b.failures + 1')}),
                 forget_at = excluded.forget_at
               RETURNING ${msLeftSql} AS ms`,
              bindingsOf(key, policy),
            );
            waitMs = Math.max(waitMs, Number(counted.rows[0]!.ms));
          }
          return waitMs;
        }),
      succeeded: () =>
        end(async (trx) => {
          await release(trx);
          await trx.raw(`DELETE FROM ${BACKOFF} WHERE key = :key`, { key: pair });
          await makeFamiliar(account, address, trx);
        }),
      abandoned: () => end(release),
    };
  }
}

/** Named bindings for a few keys (`:k0, :k1, …`): knex would spread an array binding into the statement. */
function keyList(keys: readonly string[]) {
  return { list: keys.map((_, i) => `:k${i}`), bindings: Object.fromEntries(keys.map((key, i) => [`k${i}`, key])) };
}

export type LoginBackoff = ReturnType<typeof createLoginBackoff>;

/** Drops back-off rows whose failures are forgotten and waits over, tries in flight past their time, and familiar addresses past theirs. */
export async function deleteExpiredBackoff(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM ${BACKOFF} WHERE forget_at < now() AND blocked_until < now()`);
  await db.raw(`DELETE FROM ${IN_FLIGHT} WHERE expires_at < now()`);
  await db.raw(`DELETE FROM ${FAMILIAR} WHERE expires_at < now()`);
}
