import { createHmac } from 'node:crypto';
import { normalizeEmail } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { SCHEMA } from './store.ts';

/**
 * Abuse limits of the realm's mail and registration, counted in PostgreSQL (rate-limiter-flexible's
 * store), so they hold across restarts and between processes. Failed sign-ins have their own
 * back-off (login-backoff.ts).
 */
interface ThrottleLimits {
  /** Forgot-password requests per client address per window (refused beyond). Default 5 per 15 minutes. */
  resetRequestsPerAddress: number;
  /** Reset mails per email per window (further requests send nothing, silently); also the new verification links one email may ask for. Default 3 per 15 minutes. */
  resetMailsPerEmail: number;
  resetWindowSeconds: number;
  /** Registrations (and duplicate-email attempts) per client address per hour. Default 10. */
  registrationsPerAddress: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = {
  resetRequestsPerAddress: 5,
  resetMailsPerEmail: 3,
  resetWindowSeconds: 15 * 60,
  registrationsPerAddress: 10,
};

const TABLE = 'rate_limits';

/** Whole minutes, at least 1: "Try again in N minutes." */
export const minutesOf = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

export const tooManyAttemptsMessage = (retryMs: number) => {
  const minutes = minutesOf(retryMs);
  return `Too many failed attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
};

export const tooManyRequestsMessage = (retryMs: number) => {
  const minutes = minutesOf(retryMs);
  return `Too many requests. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
};

/**
 * The keys of the realm's limits (these and the sign-in back-off's): HMACs of their parts under the
 * realm's throttle secret, so no email or address is in the tables, nor one a guess could be checked against.
 */
export const keyedMac =
  (secret: Buffer) =>
  (...parts: string[]) =>
    createHmac('sha256', secret).update(parts.join('\u0000')).digest('base64url');

/** A counter of `points` per `duration` seconds. */
class Counter {
  private readonly limiter: RateLimiterPostgres;

  constructor(
    db: Knex,
    private readonly keyOf: (value: string) => string,
    prefix: string,
    readonly points: number,
    duration: number,
  ) {
    this.limiter = new RateLimiterPostgres({
      storeClient: db,
      storeType: 'knex',
      schemaName: SCHEMA,
      tableName: TABLE,
      tableCreated: true, // created with the realm's schema
      clearExpiredByTimeout: false, // the realm's cleanup does it
      keyPrefix: prefix,
      points,
      duration,
    });
  }

  /**
   * Counts one when the key is within the limit (0), else the milliseconds until it may try again:
   * one statement, so concurrent requests (in any process) never let more than `points` through.
   */
  async take(key: string): Promise<number> {
    try {
      await this.limiter.consume(this.keyOf(key));
      return 0;
    } catch (refused) {
      if (refused instanceof RateLimiterRes) return Math.max(refused.msBeforeNext, 1000);
      throw refused;
    }
  }
}

/** `secret`: the realm's throttle secret (its keys are HMACs under it, see keyedMac). */
export function createThrottle(db: Knex, limits: ThrottleLimits, secret: Buffer) {
  const mac = keyedMac(secret);
  const resetByAddress = new Counter(db, mac, 'reset_address', limits.resetRequestsPerAddress, limits.resetWindowSeconds);
  const resetByEmail = new Counter(db, mac, 'reset_email', limits.resetMailsPerEmail, limits.resetWindowSeconds);
  const verifyByEmail = new Counter(db, mac, 'verify_email', limits.resetMailsPerEmail, limits.resetWindowSeconds);
  const registerByAddress = new Counter(db, mac, 'register_address', limits.registrationsPerAddress, 60 * 60);
  const account = normalizeEmail;

  return {
    /** Counts a forgot-password request; ms to wait when the address is over its limit, else 0. */
    resetRequested(address: string): Promise<number> {
      return resetByAddress.take(address);
    },
    /** Counts a request for a new verification mail to this email; ms to wait when it is over its limit, else 0. */
    verificationMailRequested(email: string): Promise<number> {
      return verifyByEmail.take(account(email));
    },
    /** May one more reset mail go to this email now? (Counts it when yes.) */
    async resetMailAllowed(email: string): Promise<boolean> {
      return (await resetByEmail.take(account(email))) === 0;
    },
    /** Counts a registration attempt (a new account, or an email already taken); ms to wait when the address is over its limit, else 0. */
    registrationAttempted(address: string): Promise<number> {
      return registerByAddress.take(address);
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;

/** Drops rows of windows and locks that ended more than an hour ago. */
export async function deleteExpiredLimits(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM ${SCHEMA}.${TABLE} WHERE expire < ?`, [Date.now() - 3_600_000]);
}
