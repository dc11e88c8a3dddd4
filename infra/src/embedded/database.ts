import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@forum/platform';
import { RESTART_MAX_MS, startEmbeddedPostgres, type PostgresSupervision, type ServerFailure } from '@forum/platform/embedded-postgres';
import type { EmbeddedConfig } from './config.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The forum's PostgreSQL: DATABASE_URL's, or an embedded one in DATA_DIR (`stop` stops it; nothing to stop for an external one). */
export async function forumDatabase(
  config: Pick<EmbeddedConfig, 'DATABASE_URL' | 'DATA_DIR' | 'PG_SHARED_BUFFERS'>,
  logger: Logger,
): Promise<{ url: string; stop(): Promise<void> }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: async () => {} };
  const postgres = await startEmbeddedPostgres({
    dataDir: path.resolve(root, config.DATA_DIR),
    database: 'forum',
    ...(config.PG_SHARED_BUFFERS ? { sharedBuffers: config.PG_SHARED_BUFFERS } : {}),
    log: (line) => logger.debug({ component: 'postgres' }, line),
    // a Ctrl-C reaches the forum, which stops PostgreSQL last (stop-on-signals.ts)
    ownProcessGroup: true,
    // and if it dies (killed, crashed), it is started again: the forum answers 503 meanwhile and reconnects by itself
    supervision: supervisionLog(logger),
  });
  return { url: postgres.url, stop: () => postgres.stop() };
}

const DISK_FULL = 'its disk is full (No space left on device). It starts again by itself once space is freed on its volume';

/**
 * What the supervisor tells, in the log. That PostgreSQL stopped or cannot start is said once until
 * it runs again, however often it fails to start meanwhile (a full disk may last hours). A full
 * disk is named as such: an operator must free space.
 */
function supervisionLog(logger: Logger): PostgresSupervision {
  const said = new Set<string>();
  const sayOnce = (level: 'error' | 'warn', failure: Partial<ServerFailure> & { reason?: string }, message: string) => {
    if (said.has(message)) return;
    said.add(message);
    logger[level]({ component: 'postgres', reason: failure.reason, serverSaid: failure.serverSaid }, message);
  };
  return {
    // a crash is said each time: the server recovers by itself (no 'running again' follows)
    crashed: (failure) =>
      logger.error(
        { component: 'postgres', serverSaid: failure.serverSaid },
        failure.diskFull ? `PostgreSQL crashed: ${DISK_FULL}` : 'PostgreSQL crashed; it recovers by itself',
      ),
    exitedUnexpectedly: (exit) =>
      sayOnce('error', exit, exit.diskFull ? `PostgreSQL stopped: ${DISK_FULL}` : 'PostgreSQL stopped unexpectedly; starting it again'),
    cannotStart: (exit) =>
      exit.diskFull
        ? sayOnce('error', exit, `PostgreSQL cannot start: ${DISK_FULL}`)
        : sayOnce('warn', exit, `PostgreSQL cannot start yet; it is tried again every ${RESTART_MAX_MS / 1000} s at most`),
    startingOnFreedSpace: () => logger.warn({ component: 'postgres' }, "PostgreSQL's disk has room again: starting it"),
    runningAgain: (afterMs) => {
      said.clear();
      logger.warn({ component: 'postgres', downMs: afterMs }, `PostgreSQL is running again after ${afterMs} ms`);
    },
  };
}
