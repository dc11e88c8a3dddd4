import type { Knex, Logger } from '@forum/platform';
import pg from 'pg';
import { ERASURES_CHANNEL } from '../eventstore/index.ts';
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
}

export interface ErasureReactor {
  stop(): Promise<void>;
}

/** The longest wait before an account the identity provider did not remove is tried again. */
const MAX_BACKOFF_SECONDS = 600;

/**
 * Removes erased members' accounts from the identity provider, reliably after the event: every
 * erasure leaves a row in `keystore.erasures` in the transaction of its `AccountErased`, and this
 * works through the rows not done yet, at once when one commits (LISTEN) and every `intervalMs`,
 * trying a failed one again with a growing pause, until the provider says the account is gone.
 * Two processes may both try one: removing an account that is gone already counts as done.
 */
export function startErasureReactor(options: ErasureReactorOptions): ErasureReactor {
  const { db, identity, logger } = options;
  const log = logger.child({ component: 'erasure-reactor' });
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let warned = false;

  async function pass(): Promise<void> {
    const { rows } = await db.raw<{ rows: { subject: string; attempts: number }[] }>(
      `SELECT subject, attempts FROM keystore.erasures WHERE realm_removed_at IS NULL AND next_attempt_at <= now() ORDER BY erased_at LIMIT 100`,
    );
    if (rows.length === 0) return;
    if (!identity) {
      if (!warned) log.warn({ pending: rows.length }, 'erased accounts are not removed from the identity provider: its admin API is not configured (IDENTITY_ADMIN_CLIENT_ID)');
      warned = true;
      return;
    }
    for (const { subject, attempts } of rows) {
      if (stopped) return;
      try {
        await identity.removeAccount(subject);
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
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await pass().catch((error) => log.warn({ err: error }, 'looking for erasures failed'));
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  }

  const listener = new pg.Client({ connectionString: options.connectionString, application_name: 'forum-erasure-reactor' });
  listener.on('notification', wake);
  listener.on('error', (error) => log.warn({ err: error }, 'the erasure listener lost its connection; looking every interval meanwhile'));
  const listening = listener
    .connect()
    .then(() => listener.query(`LISTEN ${ERASURES_CHANNEL}`))
    .catch((error) => log.warn({ err: error }, 'could not listen for erasures; looking every interval'));
  const timer = setInterval(wake, options.intervalMs ?? 30_000);
  timer.unref();
  void listening.then(wake);

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await listening;
      await running;
      await listener.end().catch(() => {});
    },
  };
}
