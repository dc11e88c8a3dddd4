import { startWakeLoop, type Knex, type Logger } from '@forum/platform';
import { ERASURES_CHANNEL } from '@forum/eventstore';
import type { IdentityAdmin } from './port.ts';

export interface ErasureReactorOptions {
  /** The event store's database (keystore.erasures). */
  readonly db: Knex;
  /** For the session that listens for erasures as they commit. */
  readonly connectionString: string;
  /** Null: no way to reach the identity provider (erasures wait, and the log says so). */
  readonly identity: IdentityAdmin | null;
  readonly logger: Logger;
  /** How often it looks anyway (another process's erasure missed, a failure to try again). */
  readonly intervalMs?: number;
  /** How long after an erasure the account is removed (IDENTITY_REMOVAL_GRACE_MS). */
  readonly graceMs: number;
}

export interface ErasureReactor {
  stop(): Promise<void>;
}

/** The longest wait before an account the identity provider did not remove is tried again. */
const MAX_BACKOFF_SECONDS = 600;

/**
 * Removes erased members' accounts from the identity provider, reliably after the event: every
 * erasure leaves a row in `keystore.erasures` in the transaction of its `AccountErased`, and this
 * works through the rows not done yet, from `graceMs` after the erasure (it hears of one as it
 * commits, LISTEN, and looks every `intervalMs` too), trying a failed one again with a growing
 * pause, until the provider says the account is gone.
 * Two processes may both try one: removing an account that is gone already counts as done.
 * Without a way to reach the provider it looks once, to say in the log that erasures wait.
 */
export function startErasureReactor(options: ErasureReactorOptions): ErasureReactor {
  const { db, identity, logger } = options;
  const log = logger.child({ component: 'erasure-reactor' });
  const graceSeconds = options.graceMs / 1000;

  /** Up to 100 pending erasures, oldest first, whose grace is over and whose next attempt is due. */
  async function due(): Promise<{ subject: string; attempts: number }[]> {
    const { rows } = await db.raw<{ rows: { subject: string; attempts: number }[] }>(
      `SELECT subject, attempts FROM keystore.erasures
       WHERE realm_removed_at IS NULL AND next_attempt_at <= now() AND erased_at <= now() - make_interval(secs => ?)
       ORDER BY erased_at LIMIT 100`,
      [graceSeconds],
    );
    return rows;
  }

  if (!identity) {
    // nothing can be removed: no session listening and no polling, one look for the log
    const looked = due()
      .then((rows) => {
        if (rows.length > 0)
          log.warn(
            { pending: rows.length },
            'erased accounts are not removed from the identity provider: its admin API is not configured (IDENTITY_ADMIN_CLIENT_ID)',
          );
      })
      .catch((error) => log.warn({ err: error }, 'looking for erasures failed'));
    return { stop: () => looked };
  }
  const provider = identity;

  let stopped = false;

  /** Wakes again when the next pending erasure is due (its grace over, or its retry's pause). */
  async function wakeWhenDue(): Promise<void> {
    const { rows } = await db.raw<{ rows: { ms: number | null }[] }>(
      `SELECT ceil(extract(epoch FROM min(greatest(next_attempt_at, erased_at + make_interval(secs => ?))) - now()) * 1000)::integer AS ms
       FROM keystore.erasures WHERE realm_removed_at IS NULL`,
      [graceSeconds],
    );
    const ms = rows[0]?.ms;
    if (ms !== null && ms !== undefined) loop.wakeIn(ms + 50);
  }

  async function pass(): Promise<void> {
    const rows = await due();
    if (rows.length === 0) return wakeWhenDue();
    for (const { subject, attempts } of rows) {
      if (stopped) return;
      try {
        await provider.removeAccount(subject);
        await db.raw(`UPDATE keystore.erasures SET realm_removed_at = now(), last_error = NULL WHERE subject = ? AND realm_removed_at IS NULL`, [subject]);
        log.info({ subject }, "an erased member's account was removed from the identity provider");
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await db.raw(
          `UPDATE keystore.erasures SET attempts = attempts + 1, last_error = ?, next_attempt_at = now() + make_interval(secs => ?) WHERE subject = ?`,
          [message, Math.min(MAX_BACKOFF_SECONDS, 2 ** attempts), subject],
        );
        log.warn({ subject, attempts: attempts + 1, err: error }, 'the identity provider did not remove an erased account; trying again later');
      }
    }
    await wakeWhenDue();
  }

  // a lost session is connected again by the helper, and each new LISTEN looks once for what it missed
  const loop = startWakeLoop({
    connectionString: options.connectionString,
    channels: [ERASURES_CHANNEL],
    applicationName: 'forum-erasure-reactor',
    logger: log,
    pollMs: options.intervalMs ?? 30_000,
    pass,
    failure: 'looking for erasures failed',
  });

  return {
    async stop() {
      stopped = true;
      await loop.stop();
    },
  };
}
