import type { Knex, Logger } from '@forum/platform';
import { deleteExpired } from './adapter.ts';
import { deleteExpiredBrokerStates } from './broker.ts';
import { deleteExpiredFlashes } from './flash.ts';
import { deleteExpiredBackoff } from './login-backoff.ts';
import { deleteOldMail } from '@forum/platform';
import { SCHEMA } from './store.ts';
import { deleteExpiredLimits } from './throttle.ts';

const CLEANUP_EVERY_MS = 10 * 60_000;

/** Deletes the realm's expired records every few minutes; answers the function that stops it. */
export function startCleanup(db: Knex, log: Logger): () => void {
  async function cleanupRecords() {
    await deleteExpired(db);
    await deleteExpiredBrokerStates(db);
    await deleteExpiredLimits(db);
    await deleteExpiredBackoff(db);
    await deleteExpiredFlashes(db);
    await deleteOldMail(db);
    await db.raw(`DELETE FROM ${SCHEMA}.action_tokens WHERE expires_at < now() - interval '1 day'`);
  }
  const cleanup = setInterval(() => {
    cleanupRecords().catch((err: unknown) => log.warn({ err }, 'could not delete expired identity records'));
  }, CLEANUP_EVERY_MS);
  cleanup.unref();
  return () => clearInterval(cleanup);
}
