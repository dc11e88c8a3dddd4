import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@forum/platform';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
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
    supervision: {
      exitedUnexpectedly: (reason) => logger.error({ component: 'postgres', reason }, 'PostgreSQL stopped unexpectedly; starting it again'),
      runningAgain: (afterMs) => logger.warn({ component: 'postgres', downMs: afterMs }, `PostgreSQL is running again after ${afterMs} ms`),
    },
  });
  return { url: postgres.url, stop: () => postgres.stop() };
}
